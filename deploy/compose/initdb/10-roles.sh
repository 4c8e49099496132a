#!/bin/sh
# Creates the application's role beside the owner (who runs the migrations); the migrations grant it
# what it needs. Runs once, when the database volume is new.
set -eu
app_password="$(cat /run/secrets/app-password 2>/dev/null || echo demo-app-password-change-me)"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<SQL
CREATE ROLE airlock_app LOGIN PASSWORD '${app_password}';
SQL
