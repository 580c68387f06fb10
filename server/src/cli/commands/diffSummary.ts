/** What `agentcfg --help` says of `agentcfg diff`, apart from the command: that is imported only when it runs (commands/index.ts). */
export const DIFF_SUMMARY = 'Show which CI/CD access a change to agent configurations grants, removes or moves.';
