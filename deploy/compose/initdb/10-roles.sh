#!/bin/sh
# Runs once, when the database volume is new: the two login roles the replicas sign in as, beside
# the owner (who runs the migrations). The migrations grant each its privileges and add row-level
# security (docs/database.md); the same SQL is there for a managed PostgreSQL.
set -eu
gateway_password="$(cat /run/secrets/gateway-password)"
console_password="$(cat /run/secrets/console-password)"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<SQL
CREATE ROLE airlock_gateway LOGIN PASSWORD '${gateway_password}';
CREATE ROLE airlock_console LOGIN PASSWORD '${console_password}';
SQL
