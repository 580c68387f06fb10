import type { CiAccessModel } from '../access/model';
import { IncrementalAgentConfig } from '../config/incremental/incrementalConfig';
import type { TextSource } from '../text/splicedText';
import type { ParsedYaml } from '../yaml/yamlDocument';
import type { ConfigModel } from './checks';

/**
 * An agent config the editor keeps open: each version is composed from the cached parses of the
 * entries an edit did not touch, and its own checks are redone only where the text changed.
 */
export class EditedAgentConfig {
  private readonly incremental = new IncrementalAgentConfig();

  /** This version's parse. A spliced text (the editor's text after an edit) is read around the edit, not joined. */
  update(text: TextSource): ParsedYaml {
    return this.incremental.update(text);
  }

  /**
   * The last version as `checkAgentFile` reads it. `owner` names the settings the checks run with:
   * checks cached under another owner are redone.
   */
  model(parsed: ParsedYaml, ciAccess: CiAccessModel, owner: unknown): ConfigModel {
    return { parsed, ciAccess, ownDiagnostics: (options) => this.incremental.ownDiagnostics(options, owner) };
  }
}
