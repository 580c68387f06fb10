/**
 * Generates large but realistic agent configurations for the stress tests and the benchmarks:
 * `entries` ci_access project entries, each with an environment filter and proposal rules.
 */
export function generateAgentConfig(entries: number, options: { rules?: boolean } = {}): string {
  const lines = ['ci_access:', '  projects:'];
  for (let i = 0; i < entries; i++) {
    lines.push(`    - id: acme/team-${i % 97}/service-${i}`);
    lines.push(`      default_namespace: service-${i}`);
    lines.push('      access_as:');
    lines.push('        ci_job: {}');
    // Production only from protected branches, as a careful team writes it (no security lint, docs/gitlab-behaviour.md#security-lints).
    lines.push('      protected_branches_only: true');
    lines.push('      environments:');
    lines.push('        - production');
    lines.push('        - review/*');
    if (options.rules ?? true) {
      lines.push('      rules:');
      lines.push('        - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH');
      lines.push(`          namespace: service-${i}-$CI_ENVIRONMENT_SLUG`);
      lines.push('        - when: never');
    }
  }
  return lines.join('\n') + '\n';
}

/** A configuration of at least `bytes` bytes (the entries stop as soon as the size is reached). */
export function generateAgentConfigOfSize(bytes: number): string {
  const perEntry = generateAgentConfig(1).length - 'ci_access:\n  projects:\n'.length;
  return generateAgentConfig(Math.ceil(bytes / perEntry));
}

/**
 * A configuration with something to report in many entries, for the incremental-validation tests:
 * project and group lists, `user_access`, other sections before and after, duplicate ids, invalid
 * namespaces, unreachable rules, misspelled keys and variables, bad expressions, comments.
 */
export function generateVariedAgentConfig(entries: number, seed = 1): string {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const lines = ['# generated', 'observability:', '  logging:', '    level: debug', 'ci_access:', '  projects:'];
  for (let i = 0; i < entries; i++) {
    const id = random() < 0.05 && i > 2 ? `acme/service-${Math.floor(random() * i)}` : `acme/service-${i}`;
    lines.push(`    - id: ${id}`);
    lines.push(`      default_namespace: ${pick(['service-' + i, 'Bad_Namespace', 'ns-$CI_COMMIT_REF_SLUG', 'x'.repeat(70)])}`);
    if (random() < 0.2) lines.push(`      ${pick(['enviroments', 'protected_branches_only', 'access_as'])}: ${pick(['true', '[production]', '{ci_job: {}}'])}`);
    if (random() < 0.3) lines.push('      # a comment inside the entry');
    if (random() < 0.6) {
      lines.push('      rules:');
      if (random() < 0.3) lines.push('        - namespace: always');
      lines.push(`        - if: ${pick(['$CI_COMMIT_BRANCH == "main"', '$CI_COMIT_BRANCH == "main"', 'CI_COMMIT_TAG', '${CI_COMMIT_TAG} == "v1"', '$CI_ENVIRONMENT_NAME =~ /^review/', '$A == (', '$CI_PIPELINE_SOURCE != "push"'])}`);
      lines.push(`          namespace: ${pick(['review-$CI_ENVIRONMENT_SLUG', 'prod', 'Bad Name', '$CI_COMMIT_REF_NAME'])}`);
      if (random() < 0.3) lines.push('        - when: never');
    }
    if (random() < 0.1) lines.push('');
  }
  lines.push('  groups:');
  for (let i = 0; i < Math.max(2, Math.floor(entries / 10)); i++) {
    lines.push(`  - id: acme/group-${i % 3}`);
    lines.push(`    default_namespace: ${pick(['group-ns', 'Group_NS'])}`);
  }
  lines.push('user_access:', '  access_as:', '    agent: {}', '  projects:', '    - id: acme/ops', '    - id: acme/OPS', '    - id: acme/sre', 'remote_development:', '  enabled: true');
  return lines.join('\n') + '\n';
}

/** A small deterministic PRNG (mulberry32), so a failing random test can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
