import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes `dir`/kubeconfig, whose one context ("nowhere") points at a closed port of this machine,
 * and returns its path. A cluster command given it fails with "Cannot reach the cluster" once it
 * gets as far as a request, so a test sees whether it did.
 */
export function writeUnreachableKubeconfig(dir: string): string {
  const file = path.join(dir, 'kubeconfig');
  writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters: [{name: nowhere, cluster: {server: 'https://127.0.0.1:1'}}]
users: [{name: someone, user: {token: not-a-secret}}]
contexts: [{name: nowhere, context: {cluster: nowhere, user: someone}}]
current-context: nowhere
`,
  );
  return file;
}
