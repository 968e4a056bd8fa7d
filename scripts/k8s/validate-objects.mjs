// Validates Kubernetes objects (YAML files, multi-document) against the API
// schemas shipped by the kubernetes-models packages. Prints a JSON summary
// { objects, byKind, errors } and exits 1 when an object is invalid or unknown.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

const GROUP_PACKAGES = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'gateway.networking.k8s.io': '@kubernetes-models/gateway-api',
};

async function modelOf(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const pkg = GROUP_PACKAGES[group] ?? 'kubernetes-models';
  const mod = await import(group ? `${pkg}/${group}/${version}` : `${pkg}/${version}`);
  return mod[kind];
}

const objects = [];
for (const file of process.argv.slice(2)) {
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
    if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0].message}`);
    const value = doc.toJS();
    if (value) objects.push({ file, value });
  }
}
const errors = [];
const byKind = {};
for (const { file, value } of objects) {
  const id = `${file}: ${value.kind}/${value.metadata?.name}`;
  byKind[value.kind] = (byKind[value.kind] ?? 0) + 1;
  let Model;
  try {
    Model = await modelOf(value.apiVersion, value.kind);
  } catch (err) {
    errors.push(`${id}: no schema for ${value.apiVersion} (${err.code ?? err.message})`);
    continue;
  }
  if (!Model) { errors.push(`${id}: unknown kind ${value.kind} in ${value.apiVersion}`); continue; }
  try {
    new Model(value).validate();
  } catch (err) {
    errors.push(`${id}: ${err.message}`);
  }
}
console.log(JSON.stringify({ objects: objects.length, byKind, errors }));
process.exit(errors.length ? 1 : 0);
