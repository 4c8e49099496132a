// Validates deploy/ offline, as CI can: every Kubernetes manifest against the API schemas of the
// kubernetes-models packages, every Kustomize reference, the rules the deployment promises
// (probes, no privileged containers, read-only root file systems, credentials only from Secrets),
// the compose file and the Dockerfile. Prints one line per check; exits 1 on the first failures.
import { readFileSync, existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments, parse } from "yaml";

const deploy = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const failures = [];
let checks = 0;

function check(ok, what) {
  checks++;
  if (!ok) {
    failures.push(what);
    console.log(`FAIL ${what}`);
  }
}

function yamlFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return name.endsWith(".yaml") ? [path] : [];
  });
}

async function validateResource(doc, where) {
  const { apiVersion, kind } = doc;
  check(apiVersion && kind, `${where}: apiVersion and kind`);
  if (!apiVersion || !kind) return;
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  const module = group === "monitoring.coreos.com"
    ? `@kubernetes-models/prometheus-operator/${group}/${version}/${kind}`
    : `kubernetes-models/${group ? group + "/" : ""}${version}/${kind}`;
  let Model;
  try {
    Model = (await import(module))[kind];
  } catch (e) {
    check(false, `${where}: no schema for ${apiVersion} ${kind} (${e.message})`);
    return;
  }
  try {
    new Model(doc).validate();
    check(true, `${where}: ${kind} ${doc.metadata?.name}`);
  } catch (e) {
    check(false, `${where}: ${kind} ${doc.metadata?.name}: ${e.message}`);
  }
}

function policy(doc, where) {
  const pod = doc.kind === "Deployment" || doc.kind === "StatefulSet" ? doc.spec.template.spec
    : doc.kind === "Job" ? doc.spec.template.spec : null;
  if (!pod || doc.metadata?.name === "postgres") return;
  const name = `${where}: ${doc.kind} ${doc.metadata.name}`;
  check(pod.securityContext?.runAsNonRoot === true, `${name}: runAsNonRoot`);
  for (const c of pod.containers) {
    const sc = c.securityContext ?? {};
    check(sc.privileged !== true, `${name}/${c.name}: not privileged`);
    check(sc.allowPrivilegeEscalation === false, `${name}/${c.name}: allowPrivilegeEscalation false`);
    check(sc.readOnlyRootFilesystem === true, `${name}/${c.name}: readOnlyRootFilesystem`);
    check(sc.capabilities?.drop?.includes("ALL"), `${name}/${c.name}: drops all capabilities`);
    for (const e of c.env ?? []) {
      check(!(/PASSWORD|SECRET|TOKEN|KEY/i.test(e.name) && e.value !== undefined),
        `${name}/${c.name}: ${e.name} is not a literal credential`);
    }
    if (doc.kind === "Deployment") {
      check(c.livenessProbe?.httpGet?.path === "/actuator/health/liveness", `${name}/${c.name}: liveness probe`);
      check(c.readinessProbe?.httpGet?.path === "/actuator/health/readiness", `${name}/${c.name}: readiness probe`);
      check(c.resources?.requests && c.resources?.limits?.memory, `${name}/${c.name}: resources`);
    }
  }
}

// Every resource file, and every Kustomization's references.
const kubernetes = join(deploy, "kubernetes");
const resourcesByKind = new Map();
for (const file of yamlFiles(kubernetes)) {
  const where = relative(deploy, file);
  const text = readFileSync(file, "utf8");
  if (file.endsWith("kustomization.yaml")) {
    const k = parse(text);
    check(k.kind === "Kustomization", `${where}: is a Kustomization`);
    for (const ref of [...(k.resources ?? []), ...(k.components ?? [])]) {
      check(existsSync(join(dirname(file), ref)), `${where}: resource ${ref} exists`);
    }
    for (const p of k.patches ?? []) {
      if (p.path) check(existsSync(join(dirname(file), p.path)), `${where}: patch ${p.path} exists`);
    }
    for (const g of k.configMapGenerator ?? []) {
      for (const f of g.files ?? []) check(existsSync(join(dirname(file), f)), `${where}: ${f} exists`);
    }
    continue;
  }
  if (file.endsWith("airlock.yaml")) {
    check(parse(text)?.airlock !== undefined, `${where}: Airlock configuration under airlock:`);
    continue;
  }
  const docs = parseAllDocuments(text).map((d) => d.toJS());
  const isPatch = /overlays\/[^/]+\/(replicas|resources)\.yaml$/.test(file);
  for (const doc of docs) {
    if (!doc) continue;
    if (isPatch) {
      check(doc.kind && doc.metadata?.name, `${where}: patch names its target`);
      continue;
    }
    await validateResource(doc, where);
    policy(doc, where);
    const key = `${doc.kind}/${doc.metadata?.name}`;
    resourcesByKind.set(key, where);
  }
}
// Patches must name something the base defines.
for (const file of yamlFiles(join(kubernetes, "overlays"))) {
  if (!/(replicas|resources)\.yaml$/.test(file)) continue;
  for (const doc of parseAllDocuments(readFileSync(file, "utf8")).map((d) => d.toJS())) {
    check(resourcesByKind.has(`${doc.kind}/${doc.metadata.name}`),
      `${relative(deploy, file)}: patch target ${doc.kind}/${doc.metadata.name} exists in the base`);
  }
}

// The compose file.
const composeDir = join(deploy, "compose");
const compose = parse(readFileSync(join(composeDir, "compose.yaml"), "utf8"));
for (const service of ["postgres", "migrate", "airlock-agent", "airlock-console", "proxy"]) {
  check(compose.services?.[service] !== undefined, `compose.yaml: service ${service}`);
}
for (const [name, service] of Object.entries(compose.services)) {
  check(service.privileged !== true, `compose.yaml: ${name} is not privileged`);
  for (const s of service.secrets ?? []) {
    const source = typeof s === "string" ? s : s.source;
    check(compose.secrets?.[source] !== undefined, `compose.yaml: ${name} uses declared secret ${source}`);
  }
  for (const v of service.volumes ?? []) {
    const host = typeof v === "string" ? v.split(":")[0] : v.source;
    if (host.startsWith(".")) check(existsSync(join(composeDir, host)), `compose.yaml: ${name} mounts existing ${host}`);
  }
}
for (const [name, secret] of Object.entries(compose.secrets ?? {})) {
  check(existsSync(join(composeDir, secret.file)), `compose.yaml: secret ${name} file exists`);
}

// The Dockerfile: multi-stage, pinned bases, non-root, health check, bubblewrap.
const dockerfile = readFileSync(join(deploy, "docker", "Dockerfile"), "utf8");
const froms = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]);
check(froms.length >= 2, "Dockerfile: multi-stage");
check(froms.every((f) => f.includes(":") && !f.endsWith(":latest")), "Dockerfile: base images have pinned tags");
check(/^USER\s+(?!0|root)\S+/m.test(dockerfile), "Dockerfile: runs as a non-root user");
check(/^HEALTHCHECK\s/m.test(dockerfile), "Dockerfile: HEALTHCHECK");
check(/bubblewrap/.test(dockerfile), "Dockerfile: installs bubblewrap");
check(/jarmode=tools/.test(dockerfile), "Dockerfile: Spring Boot layers");
// PID 1 must reap the sandboxes' inits orphaned to it (the JVM waits only for its own children).
check(/install[^\n]*\btini\b/.test(dockerfile), "Dockerfile: installs tini");
check(/^ENTRYPOINT\s+\[\s*"\/usr\/bin\/tini",\s*"--"/m.test(dockerfile), "Dockerfile: tini is PID 1 (ENTRYPOINT)");
const cgroupEntrypoint = readFileSync(join(deploy, "docker", "cgroup-entrypoint.sh"), "utf8");
check(/^exec \/usr\/bin\/tini -s -- java /m.test(cgroupEntrypoint), "cgroup-entrypoint.sh: starts the gateway under tini");

console.log(failures.length === 0 ? `deploy/ is valid (${checks} checks)` : `deploy/ is NOT valid: ${failures.length} of ${checks} checks failed`);
process.exit(failures.length === 0 ? 0 : 1);
