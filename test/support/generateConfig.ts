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
