#!/bin/sh
# Runs once, when the database volume is new: the application's role beside the owner (who runs
# the migrations), and the privileges it gets on everything the owner creates later. The same SQL
# is in docs/deployment.md for a managed PostgreSQL.
set -eu
app_password="$(cat /run/secrets/app-password)"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<SQL
CREATE ROLE airlock_app LOGIN PASSWORD '${app_password}';
ALTER DEFAULT PRIVILEGES FOR ROLE airlock_owner GRANT USAGE ON SCHEMAS TO airlock_app;
ALTER DEFAULT PRIVILEGES FOR ROLE airlock_owner GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO airlock_app;
ALTER DEFAULT PRIVILEGES FOR ROLE airlock_owner GRANT USAGE, SELECT ON SEQUENCES TO airlock_app;
SQL
