// Agent configurations shaped like real ones for the CLI benchmark (bench/cli.ts): the two examples
// (a good and a broken one) with their ids and namespaces varied, and generated configs of 2 to 16
// entries, clean or with mistakes (test/support/generateConfig.ts). Every fourth agent has the
// example's environment template beside its config, labelled with the agent's team (so no two
// templates are the same text, as in a real repository). Each config is also written as JSON (the
// same data, for ajv-cli).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { generateAgentConfig, generateVariedAgentConfig } from "../../test/support/generateConfig";

const root = path.resolve(import.meta.dirname, "..", "..");
const examples = path.join(root, "examples", ".gitlab", "agents");
const production = readFileSync(path.join(examples, "production-agent", "config.yaml"), "utf8");
const broken = readFileSync(path.join(examples, "broken-agent", "config.yaml"), "utf8");
const template = readFileSync(path.join(examples, "production-agent", "environment_templates", "default.yaml"), "utf8");

/** The text of config `i`. */
export function corpusConfig(i: number): string {
  switch (i % 4) {
    case 0:
      return production.replaceAll("acme/shop/", `acme/shop-${i}/`).replaceAll("storefront\n", `storefront-${i}\n`).replaceAll("payments\n", `payments-${i}\n`);
    case 1:
      return generateAgentConfig(2 + (i % 15));
    case 2:
      return generateVariedAgentConfig(2 + (i % 8), i + 1);
    default:
      return broken.replaceAll("acme/shop/", `acme/shop-${i}/`).replaceAll("storefront\n", `storefront-${i}\n`);
  }
}

/** The environment template of config `i` (every fourth): the example's, its namespace labelled with the team. */
export function corpusTemplate(i: number): string {
  const namespaceName = '      name: "{{ .environment.slug }}-{{ .project.id }}-{{ .agent.id }}"\n';
  if (!template.includes(namespaceName)) throw new Error("the example template no longer names its namespace as the corpus expects");
  return template.replace(namespaceName, `${namespaceName}      labels:\n        app.kubernetes.io/part-of: shop-${i}\n`);
}

export interface Corpus {
  /** The folder holding `.gitlab/agents/agent-<i>/config.yaml` (what `agentcfg validate <dir>` is given). */
  readonly yamlDir: string;
  /** The JSON files, in the order of the configs. */
  readonly jsonFiles: readonly string[];
  readonly configFiles: readonly string[];
  readonly bytes: number;
}

/** Writes `count` configs (and their JSON twins) under `dir`, afresh. */
export function writeCorpus(dir: string, count: number): Corpus {
  rmSync(dir, { recursive: true, force: true });
  const yamlDir = path.join(dir, "yaml");
  const jsonDir = path.join(dir, "json");
  mkdirSync(jsonDir, { recursive: true });
  const jsonFiles: string[] = [];
  const configFiles: string[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const name = `agent-${String(i).padStart(4, "0")}`;
    const agent = path.join(yamlDir, ".gitlab", "agents", name);
    mkdirSync(agent, { recursive: true });
    const text = corpusConfig(i);
    bytes += Buffer.byteLength(text);
    const configFile = path.join(agent, "config.yaml");
    writeFileSync(configFile, text);
    configFiles.push(configFile);
    if (i % 4 === 0) {
      mkdirSync(path.join(agent, "environment_templates"), { recursive: true });
      writeFileSync(path.join(agent, "environment_templates", "default.yaml"), corpusTemplate(i));
    }
    const jsonFile = path.join(jsonDir, `${name}.json`);
    writeFileSync(jsonFile, JSON.stringify(parse(text, { uniqueKeys: false }) ?? {}));
    jsonFiles.push(jsonFile);
  }
  return { yamlDir, jsonFiles, configFiles, bytes };
}
