/**
 * The version `agentcfg --version` prints and reports carry: package.json's, read at build time.
 * A named import of a JSON file: esbuild puts only this one property into dist/cli.js, and tsx
 * (the tests run the sources) reads the same file, so the two cannot disagree.
 */
import { version } from '../../../package.json';

export const AGENTCFG_VERSION: string = version;
