// `node scripts/cluster.mjs up|down|status|env`: the real Kubernetes control plane of test/cluster.
//   up      build (cached) and start it, wait for /readyz, print the kubeconfig path; idempotent
//   down    stop it (its whole process group) and remove its data; idempotent
//   status  print the state file and whether it is running and ready (exit 0 when ready, 3 if not)
//   env     print `export` lines for the cluster tests and benchmarks (AGENTCFG_TEST_KUBECONFIG, …)
// See test/cluster/README.md.
import { down, readState, status, stateFile, testEnv, up } from './lib/cluster-control.mjs';

const USAGE = 'usage: node scripts/cluster.mjs up|down|status|env';

async function main(command) {
  switch (command) {
    case 'up': {
      const { started, state } = await up();
      if (!started) console.log(`[cluster] already running: ${state.server}`);
      console.log(`[cluster] contexts: ${state.adminContext} (admin), ${state.restrictedContext} (only namespace ${state.restrictedNamespace})`);
      console.log(`[cluster] state: ${stateFile}`);
      console.log(state.kubeconfig);
      return 0;
    }
    case 'down': {
      const { stopped } = await down();
      console.log(stopped ? '[cluster] stopped; data removed' : '[cluster] not running');
      return 0;
    }
    case 'status': {
      const { state, alive, ready } = await status();
      console.log(JSON.stringify({ running: alive, ready, stateFile, state }, null, 2));
      return ready ? 0 : 3;
    }
    case 'env': {
      const { ready } = await status();
      if (!ready) {
        console.error('[cluster] not running; start it with `npm run cluster:up`');
        return 3;
      }
      for (const [k, v] of Object.entries(testEnv(readState()))) console.log(`export ${k}='${v.replaceAll("'", "'\\''")}'`);
      return 0;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`[cluster] ${err.message}`);
    process.exit(1);
  },
);
