/**
 * Kubernetes contexts a job's script selects by name: `kubectl … --context X`, `kubectl … --context=X`,
 * `kubectl config use-context X` and `helm … --kube-context X`, where X is literal or a variable
 * (`$VAR`, `${VAR}`); and a job's `KUBE_CONTEXT` variable, which Auto DevOps jobs switch to
 * (https://docs.gitlab.com/user/clusters/agent/ci_cd_workflow/#environments-that-use-auto-devops). GitLab
 * names each agent's context `<agent configuration project path>:<agent name>` in the job's
 * `KUBECONFIG` (https://docs.gitlab.com/user/clusters/agent/ci_cd_workflow/#update-your-gitlab-ciyml-file-to-run-kubectl-commands),
 * so a name here can be compared with the agents that authorize the job.
 */
import type { Loc, YNode } from './tree';

export interface FoundContext {
  readonly context: string;
  readonly loc: Loc;
}

// A context name runs to the next blank, quote or shell operator; quotes around it are dropped. A
// CI/CD component input (`$[[ inputs.agent ]]`, blanks allowed inside) is part of the name.
const NAME = `(["']?)((?:\\$\\[\\[[^\\]\\n]*\\]\\]|[^\\s"';&|)])+)\\1`;
const FLAG = new RegExp(`\\bkubectl\\b[^;&|\\n]*?\\s--context(?:=|\\s+)${NAME}`, 'g');
const USE_CONTEXT = new RegExp(`\\bkubectl\\s+config\\s+use-context\\s+${NAME}`, 'g');
// Helm reads the same KUBECONFIG; its flag is --kube-context (https://helm.sh/docs/helm/helm/).
const HELM = new RegExp(`\\bhelm\\b[^;&|\\n]*?\\s--kube-context(?:=|\\s+)${NAME}`, 'g');

/** The contexts named in the lines of `script`-like lists (already flattened), in order. */
export function findKubeContexts(lines: readonly YNode[], text: (file: string) => string): FoundContext[] {
  const found: FoundContext[] = [];
  for (const line of lines) {
    if (line.kind !== 'scalar' || typeof line.value !== 'string' || !/kubectl|helm/.test(line.value)) continue;
    // A command continued on the next line (`\` at the end) is one command: the continuation is
    // blanked out with as many characters, so offsets stay those of the value.
    const command = line.value.replace(/\\\r?\n/g, (m) => ' '.repeat(m.length));
    const hits: { index: number; name: string }[] = [];
    for (const re of [FLAG, USE_CONTEXT, HELM]) {
      for (const m of command.matchAll(re)) hits.push({ index: m.index + m[0].length - m[2].length - m[1].length, name: m[2] });
    }
    hits.sort((a, b) => a.index - b.index);
    for (const hit of hits) found.push({ context: hit.name, loc: locate(line, hit.index, hit.name, text(line.loc.file)) });
  }
  return found;
}

/**
 * Where `name`, at `index` of the scalar's value, is in the file: its occurrence of the same rank in
 * the scalar's source (exact for plain, quoted and literal block scalars); the whole scalar otherwise.
 */
function locate(line: YNode, index: number, name: string, text: string): Loc {
  const source = text.slice(line.loc.start, line.loc.end);
  const value = line.kind === 'scalar' ? line.text : '';
  let rank = 0;
  for (let at = value.indexOf(name); at !== -1 && at < index; at = value.indexOf(name, at + 1)) rank++;
  let at = source.indexOf(name);
  for (let i = 0; i < rank && at !== -1; i++) at = source.indexOf(name, at + 1);
  if (at === -1) return line.loc;
  return { file: line.loc.file, start: line.loc.start + at, end: line.loc.start + at + name.length };
}
