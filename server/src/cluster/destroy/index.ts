/** Delete an environment's resources (`delete_resources: on_stop`): plan from the inventory, then execute. */
export { planDestroy, deletionRefusal, describeDestroyPlan, type DestroyInput, type DestroyPlan, type DestroyPlanOptions } from './plan';
export { executeDestroy, DEFAULT_DESTROY_TIMEOUT_MS, type DestroyResult, type ExecuteDestroyOptions } from './execute';
