/** cli-utils inventories (docs/gitlab-behaviour.md#inventories): key format, ConfigMap shape, reading and writing them. */
export { encodeObjMetadata, parseObjMetadata, type InventoryRef, type ParsedObjMetadata } from '../kube/objMetadata';
export {
  INVENTORY_ID_LABEL,
  OWNING_INVENTORY_ANNOTATION,
  buildInventoryConfigMap,
  isInventoryConfigMap,
  readInventoryConfigMap,
  tamperedIdReason,
  uniqueRefs,
  type Inventory,
  type ParsedInventory,
} from './configMap';
export { deleteInventory, inventoryRef, listInventories, readInventory, writeInventory } from './store';
