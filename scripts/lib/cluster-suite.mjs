// Hooks scripts/test.mjs runs around the cluster suite, and test/cluster/harness.ts when a cluster
// test file runs on its own: one control plane per test run, shared by every cluster test file.
import { down, testEnv, up } from './cluster-control.mjs';

let startedHere = false;

/**
 * Makes sure the control plane is built, running and ready, and returns the environment variables
 * the cluster test processes need (AGENTCFG_TEST_KUBECONFIG, AGENTCFG_TEST_ADMIN_CONTEXT,
 * AGENTCFG_TEST_RESTRICTED_CONTEXT, AGENTCFG_TEST_RESTRICTED_NAMESPACE, AGENTCFG_TEST_CLUSTER_STATE,
 * AGENTCFG_KUBECTL). When it cannot (no Go, build failure), returns AGENTCFG_TEST_CLUSTER_ERROR
 * instead, so each cluster test fails with the reason while the other suites still run.
 */
export async function beforeClusterSuite() {
  try {
    const { started, state } = await up();
    startedHere = startedHere || started;
    if (!started) console.log(`[cluster] using the control plane already running at ${state.server}`);
    return testEnv(state);
  } catch (err) {
    console.error(`[cluster] could not start the control plane: ${err.message}`);
    return { AGENTCFG_TEST_CLUSTER_ERROR: err.message };
  }
}

/**
 * Stops the control plane if beforeClusterSuite started it (unless AGENTCFG_CLUSTER_KEEP=1); leaves
 * one that was already running before the suite alone.
 */
export async function afterClusterSuite() {
  if (!startedHere || process.env.AGENTCFG_CLUSTER_KEEP === '1') return;
  startedHere = false;
  await down();
  console.log('[cluster] stopped the control plane this run started');
}
