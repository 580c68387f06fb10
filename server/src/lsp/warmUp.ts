import { agentConfigOf, checkAgentFile, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS, readAgentConfig, wholeFileModel } from '../engine/api';
import { EditedAgentConfig } from '../engine/api/editor';

/**
 * A config like the ones users open: entries with an environment filter and rules (`variant` changes
 * one value, as an edit does; an odd variant writes the environments as a block list, an even one as
 * a flow list, the two forms users write).
 */
function warmUpConfig(entries: number, variant: number): string {
  const environments = variant % 2 ? '      environments:\n        - production\n        - review/*\n' : '      environments: [production, review/*]\n';
  const entry = (i: number) =>
    `    - id: warm/up-${i}\n      default_namespace: ns-${i}${i === 0 ? `-${variant}` : ''}\n      access_as:\n        ci_job: {}\n      protected_branches_only: true\n${environments}      rules:\n        - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH\n          namespace: ns-$CI_ENVIRONMENT_SLUG\n        - when: never\n`;
  return `ci_access:\n  projects:\n${Array.from({ length: entries }, (_, i) => entry(i)).join('')}`;
}

/** Parses of growing configs (10, 20, 30, then 40 entries) in the warm-up, for the YAML reader. */
const READER_STEPS = 16;

/**
 * Checks of 20-entry configs that end the warm-up (each short once warm). A first open of a 128 KiB
 * config soon after start-up was faster with 24 of them than with 12.
 *
 * More steps help a file opened after the warm-up has finished, but cost memory and delay an open
 * that arrives during them. A first open of 128 KiB a while after start got faster with more steps,
 * most at 72 (no reader steps then) and beyond, while the peak resident memory of an idle server
 * that then opens 10 entries grew with them, past yaml-language-server's at 96 steps. The jump at 72
 * is V8 optimizing the entry checks (`--trace-opt`: after 24 steps, namespaceDiagnostics,
 * partDiagnostics and evaluateRules are optimized during the first and second real opens). The
 * memory is the young generation grown by the warm-up's allocation (`--max-semi-space-size=2` gives
 * most of it back). And with 72 steps, an open soon after start waits for the warm-up: 10 entries
 * opened slower than with 24, and 128 KiB no faster. Once the namespace checks decided only the
 * scenarios where a namespace would be invalid (cheaper steps), 40 and 56 steps made that open no
 * faster than 24.
 */
const CHECK_STEPS = 24;

/**
 * The steps of a warm-up: the paths the first open and the first edits of an agent config take
 * (the whole-file model, the incremental model, the schema, the rules and namespace checks, an
 * edit), run on small configs so that V8 has compiled them before a real file arrives. The YAML
 * reader, whose cost grows with every line of a file, gets parses of its own until it is optimized
 * (cold, its part of a first open at 128 KiB took 3.5 times what it takes warm). Each step is
 * short, growing as the code warms: they run one per turn of the event loop, so a request that
 * arrives meanwhile waits for one step at most.
 */
function warmUpSteps(): (() => void)[] {
  const path = '/warm-up/.gitlab/agents/warm-up/config.yaml';
  const model = new EditedAgentConfig();
  const owner = {};
  const check = (content: string) => {
    const parsed = model.update(content);
    checkAgentFile({ path, content }, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS, model.model(parsed, agentConfigOf(parsed).ciAccess, owner));
  };
  const small = warmUpConfig(2, 0);
  return [
    () => checkAgentFile({ path, content: small }, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS, wholeFileModel(small)),
    () => check(small),
    () => check(warmUpConfig(2, 1)),
    ...Array.from({ length: READER_STEPS }, (_, i) => () => readAgentConfig(warmUpConfig(Math.min(40, 10 * (i + 1)), i))),
    // Larger configs and edits of them, until the hot functions are optimized.
    ...Array.from({ length: CHECK_STEPS }, (_, i) => () => check(warmUpConfig(20, i))),
  ];
}

/** How a warm-up ended: `ran` of its `of` steps (fewer when a document arrived, or a step failed). */
export interface WarmUpEnd {
  readonly ran: number;
  readonly of: number;
}

/** Runs the warm-up steps while the server is idle; stops for good at `stop()` (a real document arrived). */
export class WarmUp {
  private steps: (() => void)[] | null = null;
  private stopped = false;

  /**
   * Starts after `initialize` has been answered: the first answer never waits for the warm-up. The
   * steps are not unref'd: an event loop with only unref'd immediates blocks in its poll phase, and
   * the steps then ran only when a message happened to wake it (in the editing bench, 6 of 15 were
   * still waiting at the first open). Resolves when every step has run, or at the turn after `stop()`.
   */
  start(): Promise<WarmUpEnd> {
    if (this.steps || this.stopped) return Promise.resolve({ ran: 0, of: 0 });
    this.steps = warmUpSteps();
    const of = this.steps.length;
    return new Promise((resolve) => {
      let ran = 0;
      const next = () => {
        const step = this.stopped ? undefined : this.steps?.shift();
        if (!step) return resolve({ ran, of });
        try {
          step();
          ran++;
        } catch {
          // A warm-up that fails only leaves the first real file cold; that file reports its own problems.
          this.stopped = true;
        }
        setImmediate(next);
      };
      setImmediate(next);
    });
  }

  stop(): void {
    this.stopped = true;
    this.steps = null;
  }
}
