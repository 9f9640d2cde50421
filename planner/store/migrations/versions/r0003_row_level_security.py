"""Row-level security on PostgreSQL: the database enforces the roles of ``planner/access.py``.

Adds ``store_members`` (the user and teams behind each database login; unused on SQLite, a
single-user file). On PostgreSQL only it also:

- creates the group roles ``planner_viewer`` < ``planner_architect`` < ``planner_commercial`` <
  ``planner_admin`` (each a member of the one before, as each application role holds the
  permissions of the one before) and ``planner_server`` (the app server: a member of
  ``planner_admin``), when they do not exist yet (roles belong to the whole server; the migrating
  role needs ``CREATEROLE``, or an administrator creates them first, see ``docs/security.md``);
- grants each the table rights its application role needs: nothing on scenarios for a viewer;
  no ``DELETE`` on scenarios or versions (trash is a flag; versions are immutable) and nothing
  but ``INSERT``/``SELECT`` on the audit log, for anyone;
- defines who a connection is: a login that is a member of ``planner_server`` acts for the user
  the app signed in, named per transaction with ``set_config('planner.user'|'planner.role'|
  'planner.teams', ..., true)``; any other login is itself (its ``store_members`` row, else its
  name) with the highest ``planner_*`` role it is a member of, and the settings are ignored;
- enables row-level security on ``scenarios``, ``scenario_versions``, ``scenario_tags`` and
  ``audit_log`` with policies that mirror :mod:`planner.store.permissions`, and a trigger that
  keeps ``owner`` and ``team`` fixed and lets only the owner or an admin trash or restore.

The table owner (the role that migrates, the app's connection in the compose deployment) is not
subject to the policies; it is the deployment's administrator credential.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None

GROUPS = ("planner_viewer", "planner_architect", "planner_commercial", "planner_admin", "planner_server")
"""The group roles, least privileged first; each is granted to the next."""

ROLES_SQL = """
DO $roles$
DECLARE
    wanted text[] := ARRAY['planner_viewer', 'planner_architect', 'planner_commercial',
                           'planner_admin', 'planner_server'];
    name text;
    previous text := NULL;
BEGIN
    FOREACH name IN ARRAY wanted LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = name) THEN
            IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = current_user
                           AND (rolcreaterole OR rolsuper)) THEN
                RAISE EXCEPTION 'database role % is missing and % may not create roles (docs/security.md)',
                    name, current_user;
            END IF;
            BEGIN
                EXECUTE format('CREATE ROLE %I NOLOGIN', name);
            EXCEPTION WHEN duplicate_object OR unique_violation THEN
                NULL;  -- another database of this server created it meanwhile
            END;
        END IF;
        IF previous IS NOT NULL AND NOT pg_catalog.pg_has_role(name, previous, 'MEMBER') THEN
            EXECUTE format('GRANT %I TO %I', previous, name);
        END IF;
        previous := name;
    END LOOP;
END
$roles$
"""

# Every function is pinned to this schema, then pg_temp (so a login cannot shadow store_members
# with a temporary table of its own); {schema} is filled in, quoted, at migration time.
FUNCTIONS_SQL = """
CREATE FUNCTION planner_is_server() RETURNS boolean LANGUAGE sql STABLE
    SET search_path = pg_catalog, {schema}, pg_temp
    AS $$ SELECT pg_has_role(session_user, 'planner_server', 'MEMBER') $$;

CREATE FUNCTION planner_rank(role text) RETURNS integer LANGUAGE sql IMMUTABLE
    SET search_path = pg_catalog, {schema}, pg_temp
    AS $$ SELECT CASE role WHEN 'viewer' THEN 1 WHEN 'architect' THEN 2
                           WHEN 'commercial' THEN 3 WHEN 'admin' THEN 4 ELSE 0 END $$;

CREATE FUNCTION planner_held_role() RETURNS text LANGUAGE sql STABLE
    SET search_path = pg_catalog, {schema}, pg_temp
    AS $$ SELECT coalesce((SELECT r FROM unnest(ARRAY['admin', 'commercial', 'architect', 'viewer']) AS r
                           WHERE pg_has_role(session_user, 'planner_' || r, 'MEMBER') LIMIT 1), '') $$;

CREATE FUNCTION planner_user() RETURNS text LANGUAGE sql STABLE
    SET search_path = pg_catalog, {schema}, pg_temp
    AS $$ SELECT CASE WHEN planner_is_server() THEN coalesce(current_setting('planner.user', true), '')
                 ELSE coalesce((SELECT m.user_id FROM store_members m WHERE m.login = session_user),
                               session_user::text) END $$;

CREATE FUNCTION planner_role() RETURNS text LANGUAGE sql STABLE
    SET search_path = pg_catalog, {schema}, pg_temp
    AS $$ SELECT CASE WHEN planner_is_server() THEN coalesce(current_setting('planner.role', true), '')
                 ELSE planner_held_role() END $$;

CREATE FUNCTION planner_teams() RETURNS text[] LANGUAGE sql STABLE
    SET search_path = pg_catalog, {schema}, pg_temp
    AS $$ SELECT CASE WHEN planner_is_server()
                 THEN ARRAY(SELECT json_array_elements_text(
                            coalesce(nullif(current_setting('planner.teams', true), ''), '[]')::json))
                 ELSE ARRAY(SELECT json_array_elements_text(m.teams::json)
                            FROM store_members m WHERE m.login = session_user) END $$;

CREATE FUNCTION planner_may_read(owner text, team text) RETURNS boolean LANGUAGE sql STABLE
    SET search_path = pg_catalog, {schema}, pg_temp
    AS $$ SELECT planner_rank(planner_role()) >= 2
                 AND (planner_role() = 'admin' OR owner = planner_user()
                      OR (team <> '' AND team = ANY (planner_teams()))) $$;

CREATE FUNCTION planner_check_scenario_update() RETURNS trigger LANGUAGE plpgsql
    SET search_path = pg_catalog, {schema}, pg_temp
    AS $$
BEGIN
    IF NOT row_security_active(TG_RELID) OR planner_role() = 'admin' THEN
        RETURN NEW;
    END IF;
    IF NEW.owner IS DISTINCT FROM OLD.owner OR NEW.team IS DISTINCT FROM OLD.team THEN
        RAISE EXCEPTION 'scenario %: only an admin may change its owner or team', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.deleted_at IS DISTINCT FROM OLD.deleted_at AND OLD.owner <> planner_user() THEN
        RAISE EXCEPTION 'scenario %: only its owner or an admin may delete or restore it', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER planner_check_scenario_update BEFORE UPDATE ON scenarios
    FOR EACH ROW EXECUTE FUNCTION planner_check_scenario_update();
"""

POLICIES_SQL = """
ALTER TABLE scenarios ENABLE ROW LEVEL SECURITY;
CREATE POLICY planner_read ON scenarios FOR SELECT USING (planner_may_read(owner, team));
CREATE POLICY planner_create ON scenarios FOR INSERT WITH CHECK (
    planner_rank(planner_role()) >= 2
    AND (planner_role() = 'admin'
         OR (owner = planner_user() AND (team = '' OR team = ANY (planner_teams())))));
CREATE POLICY planner_edit ON scenarios FOR UPDATE
    USING (planner_may_read(owner, team)) WITH CHECK (planner_may_read(owner, team));

ALTER TABLE scenario_versions ENABLE ROW LEVEL SECURITY;
CREATE POLICY planner_read ON scenario_versions FOR SELECT
    USING (EXISTS (SELECT 1 FROM scenarios s WHERE s.id = scenario_id));
CREATE POLICY planner_create ON scenario_versions FOR INSERT
    WITH CHECK (EXISTS (SELECT 1 FROM scenarios s WHERE s.id = scenario_id));

ALTER TABLE scenario_tags ENABLE ROW LEVEL SECURITY;
CREATE POLICY planner_read ON scenario_tags FOR SELECT
    USING (EXISTS (SELECT 1 FROM scenarios s WHERE s.id = scenario_id));
CREATE POLICY planner_create ON scenario_tags FOR INSERT
    WITH CHECK (EXISTS (SELECT 1 FROM scenarios s WHERE s.id = scenario_id));
CREATE POLICY planner_remove ON scenario_tags FOR DELETE
    USING (EXISTS (SELECT 1 FROM scenarios s WHERE s.id = scenario_id));

ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
CREATE POLICY planner_read ON audit_log FOR SELECT
    USING (planner_role() = 'admin' OR actor = planner_user());
CREATE POLICY planner_create ON audit_log FOR INSERT
    WITH CHECK (actor = planner_user() AND planner_rank(role) BETWEEN 1 AND planner_rank(planner_role()));
"""

GRANTS_SQL = """
DO $grants$
BEGIN
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO planner_viewer', current_schema());
EXCEPTION WHEN insufficient_privilege THEN
    NULL;  -- a schema this role does not own: its owner grants USAGE (public allows it already)
END
$grants$;
GRANT SELECT ON alembic_version, store_members TO planner_viewer;
GRANT SELECT, INSERT ON audit_log TO planner_viewer;
GRANT USAGE ON SEQUENCE audit_log_id_seq TO planner_viewer;
GRANT SELECT, INSERT, UPDATE ON scenarios TO planner_architect;
GRANT SELECT, INSERT ON scenario_versions TO planner_architect;
GRANT SELECT, INSERT, DELETE ON scenario_tags TO planner_architect;
GRANT USAGE ON SEQUENCE scenarios_id_seq, scenario_versions_id_seq TO planner_architect;
"""

DOWNGRADE_SQL = """
DROP TRIGGER planner_check_scenario_update ON scenarios;
DROP POLICY planner_read ON scenarios;
DROP POLICY planner_create ON scenarios;
DROP POLICY planner_edit ON scenarios;
DROP POLICY planner_read ON scenario_versions;
DROP POLICY planner_create ON scenario_versions;
DROP POLICY planner_read ON scenario_tags;
DROP POLICY planner_create ON scenario_tags;
DROP POLICY planner_remove ON scenario_tags;
DROP POLICY planner_read ON audit_log;
DROP POLICY planner_create ON audit_log;
ALTER TABLE scenarios DISABLE ROW LEVEL SECURITY;
ALTER TABLE scenario_versions DISABLE ROW LEVEL SECURITY;
ALTER TABLE scenario_tags DISABLE ROW LEVEL SECURITY;
ALTER TABLE audit_log DISABLE ROW LEVEL SECURITY;
REVOKE ALL ON alembic_version, audit_log, scenarios, scenario_versions, scenario_tags
    FROM planner_viewer, planner_architect;
REVOKE ALL ON SEQUENCE audit_log_id_seq, scenarios_id_seq, scenario_versions_id_seq
    FROM planner_viewer, planner_architect;
DROP FUNCTION planner_check_scenario_update();
DROP FUNCTION planner_may_read(text, text);
DROP FUNCTION planner_teams();
DROP FUNCTION planner_role();
DROP FUNCTION planner_user();
DROP FUNCTION planner_held_role();
DROP FUNCTION planner_rank(text);
DROP FUNCTION planner_is_server();
"""


def _run(script: str) -> None:
    """Run each part of ``script`` (split on blank lines: bodies hold semicolons) as the driver's
    own SQL (``%`` doubled: the driver reads ``%%`` as PostgreSQL's ``%``)."""
    bind = op.get_bind()
    for statement in script.strip().split("\n\n"):
        bind.exec_driver_sql(statement.replace("%", "%%"))


def upgrade() -> None:
    op.create_table(
        "store_members",
        sa.Column("login", sa.String(length=63), nullable=False),
        sa.Column("user_id", sa.String(length=200), nullable=False),
        sa.Column("teams", sa.Text(), server_default="[]", nullable=False),
        sa.PrimaryKeyConstraint("login", name=op.f("pk_store_members")),
    )
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    schema = bind.execute(sa.text("SELECT quote_ident(current_schema())")).scalar_one()
    _run(ROLES_SQL)
    _run(FUNCTIONS_SQL.replace("{schema}", schema))
    _run(POLICIES_SQL)
    _run(GRANTS_SQL)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _run("REVOKE ALL ON store_members FROM planner_viewer")
        _run(DOWNGRADE_SQL)
    op.drop_table("store_members")
