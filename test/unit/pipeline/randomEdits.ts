// Random edits of pipeline texts, for the tests that check a reading after an edit against one from scratch.

/** A small deterministic random source (mulberry32), so a failure can be replayed. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One random edit of a line: changed, removed, doubled, indented, a comment or a new job inserted, anchors and references added. */
export function edit(text: string, next: () => number): string {
  const lines = text.split('\n');
  const at = Math.floor(next() * lines.length);
  const line = lines[at];
  switch (Math.floor(next() * 9)) {
    case 0:
      lines[at] = `${line}x`;
      break;
    case 1:
      lines.splice(at, 1);
      break;
    case 2:
      lines.splice(at, 0, line);
      break;
    case 3:
      lines.splice(at, 0, '# comment');
      break;
    case 4:
      lines.splice(at, 0, `new${at}:`, '  environment: production', '  script: [kubectl --context acme/agents:prod get pods]');
      break;
    case 5:
      lines[at] = line.replace(/production|staging/, (m) => (m === 'production' ? 'staging' : 'production'));
      break;
    case 6:
      lines.splice(at, 0, '.t: &t', '  environment: review/$CI_COMMIT_REF_SLUG');
      break;
    case 7:
      lines.splice(at, 0, `ref${at}:`, '  script: !reference [.deploy, before_script]', '  environment: production');
      break;
    default:
      lines[at] = line.replace(/^( *)(\S)/, '$1  $2');
  }
  return lines.join('\n');
}

export function benchPipeline(jobs: number): string {
  const lines = ['variables:', '  AGENT: acme/agents:prod', '', 'workflow:', '  rules:', '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"', '    - if: $CI_COMMIT_BRANCH', '    - if: $CI_COMMIT_TAG', '', '.deploy:', '  image: bitnami/kubectl', '  before_script:', '    - kubectl config use-context $AGENT', ''];
  for (let i = 0; i < jobs; i++) {
    const review = i % 3 === 0;
    lines.push(
      `job-${i}:`,
      '  extends: .deploy',
      `  script:`,
      `    - kubectl --context acme/agents:${i % 2 ? 'prod' : 'review'} apply -f k8s/${i}/`,
      '  environment:',
      `    name: ${review ? 'review/$CI_COMMIT_REF_SLUG' : i % 3 === 1 ? 'production' : 'staging'}`,
      '  rules:',
      review ? '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"' : '    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
      '',
    );
  }
  return lines.join('\n');
}
