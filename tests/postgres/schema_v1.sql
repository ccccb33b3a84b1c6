-- The fleet schema at version 1, as skillmd created it before version 2: row-level
-- security over table privileges granted to PUBLIC. Kept to test the upgrade to v2.
CREATE SCHEMA skillmd;
CREATE TABLE skillmd.meta (key text PRIMARY KEY, value bigint NOT NULL);
INSERT INTO skillmd.meta VALUES ('schema_version', 1);
CREATE TABLE skillmd.grants (
  namespace text NOT NULL, role name NOT NULL, can_write boolean NOT NULL DEFAULT false,
  PRIMARY KEY (namespace, role));
CREATE TABLE skillmd.skills (
  namespace text NOT NULL CHECK (length(namespace) BETWEEN 1 AND 128),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
  description text NOT NULL,
  triggers jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(triggers) = 'array'),
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  revision bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (namespace, name));
CREATE TABLE skillmd.changes (namespace text PRIMARY KEY, counter bigint NOT NULL);

-- The roles the current user is (directly or through membership).
CREATE FUNCTION skillmd.my_roles() RETURNS SETOF name LANGUAGE sql STABLE SET search_path = pg_catalog AS
  $$ SELECT rolname FROM pg_catalog.pg_roles WHERE pg_catalog.pg_has_role(current_user, oid, 'MEMBER') $$;

-- Every write bumps its namespace's counter (the row lock orders writers, so the counter
-- is a watermark), stamps the row with it, and announces the namespace on commit.
CREATE FUNCTION skillmd.changed() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog AS $$
DECLARE
  ns text := CASE WHEN TG_OP = 'DELETE' THEN OLD.namespace ELSE NEW.namespace END;
  rev bigint;
BEGIN
  IF TG_OP = 'UPDATE' AND (NEW.namespace <> OLD.namespace OR NEW.name <> OLD.name) THEN
    RAISE EXCEPTION 'a skill''s namespace and name do not change' USING ERRCODE = '22023';
  END IF;
  INSERT INTO skillmd.changes AS c (namespace, counter) VALUES (ns, 1)
    ON CONFLICT (namespace) DO UPDATE SET counter = c.counter + 1 RETURNING counter INTO rev;
  PERFORM pg_notify('skillmd_changes', ns);
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  NEW.revision := rev;
  NEW.updated_at := now();
  IF TG_OP = 'UPDATE' THEN NEW.created_at := OLD.created_at; ELSE NEW.created_at := now(); END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER changed BEFORE INSERT OR UPDATE OR DELETE ON skillmd.skills
  FOR EACH ROW EXECUTE FUNCTION skillmd.changed();

ALTER TABLE skillmd.skills ENABLE ROW LEVEL SECURITY;
CREATE POLICY reads ON skillmd.skills FOR SELECT USING (EXISTS (SELECT 1 FROM skillmd.grants g
  WHERE g.namespace = skills.namespace AND g.role IN (SELECT skillmd.my_roles())));
CREATE POLICY inserts ON skillmd.skills FOR INSERT WITH CHECK (EXISTS (SELECT 1 FROM skillmd.grants g
  WHERE g.namespace = skills.namespace AND g.can_write AND g.role IN (SELECT skillmd.my_roles())));
CREATE POLICY updates ON skillmd.skills FOR UPDATE USING (EXISTS (SELECT 1 FROM skillmd.grants g
  WHERE g.namespace = skills.namespace AND g.can_write AND g.role IN (SELECT skillmd.my_roles())))
  WITH CHECK (EXISTS (SELECT 1 FROM skillmd.grants g
  WHERE g.namespace = skills.namespace AND g.can_write AND g.role IN (SELECT skillmd.my_roles())));
CREATE POLICY deletes ON skillmd.skills FOR DELETE USING (EXISTS (SELECT 1 FROM skillmd.grants g
  WHERE g.namespace = skills.namespace AND g.can_write AND g.role IN (SELECT skillmd.my_roles())));
ALTER TABLE skillmd.grants ENABLE ROW LEVEL SECURITY;
CREATE POLICY own ON skillmd.grants FOR SELECT USING (role IN (SELECT skillmd.my_roles()));
ALTER TABLE skillmd.changes ENABLE ROW LEVEL SECURITY;
CREATE POLICY reads ON skillmd.changes FOR SELECT USING (EXISTS (SELECT 1 FROM skillmd.grants g
  WHERE g.namespace = changes.namespace AND g.role IN (SELECT skillmd.my_roles())));

REVOKE ALL ON ALL TABLES IN SCHEMA skillmd FROM PUBLIC;
REVOKE ALL ON FUNCTION skillmd.changed() FROM PUBLIC;
GRANT USAGE ON SCHEMA skillmd TO PUBLIC;
GRANT SELECT, INSERT, UPDATE (description, triggers, content), DELETE ON skillmd.skills TO PUBLIC;
GRANT SELECT ON skillmd.grants, skillmd.changes, skillmd.meta TO PUBLIC;
