import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentDirectoryOf, CONFIG_FILE_NAMES, NO_SIBLINGS, siblingsFrom, type AgentSiblings, type ParsedAgentConfig } from '../engine/api';

/** How many files back a checked file's text and parsed config stay at hand (an agent's files are next to each other in a listing). */
const KEPT_FOR = 16;

/** A file of the batch as read: its bytes, or why it could not be read. */
export type FileRead = { readonly bytes: Uint8Array } | { readonly error: string };

/** What listing the directories of the command line showed: a file (or a folder of it) missing from a listed directory is not asked of the disk. */
export interface ListedFiles {
  isAbsent(absolute: string): boolean;
}

/**
 * The files of one `agentcfg validate` run, in the order they are checked, and what the checks of
 * one file can take from the others: an agent's config.yaml asks for its template and a template
 * for its config. A sibling checked a moment ago answers with its text and its parsed config; one
 * still to come is read once, for both; one under a listed directory that the listing lacks is
 * absent without asking the disk.
 *
 * Reads are synchronous: for the small files of a batch, `fs/promises` `readFile` costs about ten
 * times `readFileSync` (open, fstat, read and close are each a trip through the thread pool and
 * back), more than overlapping the reads with the checks ever gave back.
 */
export class BatchFiles {
  /** Files checked lately, by absolute path: their text and, for a config, its parsed model. */
  private readonly recent = new Map<string, { readonly text: string; readonly config: ParsedAgentConfig | null; readonly index: number }>();
  /** Files of the batch read early as a sibling, waiting for their turn. */
  private readonly early = new Map<string, Uint8Array>();
  private readonly pending: Set<string>;

  constructor(
    absolutes: readonly string[],
    private readonly listed: ListedFiles,
  ) {
    this.pending = new Set(absolutes);
  }

  /** The bytes of the file whose turn it is. */
  take(absolute: string): FileRead {
    const early = this.early.get(absolute);
    if (early) {
      this.early.delete(absolute);
      return { bytes: early };
    }
    try {
      return { bytes: readFileSync(absolute) };
    } catch (err) {
      return { error: (err as NodeJS.ErrnoException).code ?? String(err) };
    }
  }

  /**
   * Notes a file just checked (the `index`-th of the batch): its text, and its parsed model when it
   * is a config, answer its sibling for a while; what is older than that is let go.
   */
  checked(absolute: string, index: number, text: string, config: ParsedAgentConfig | null): void {
    this.pending.delete(absolute);
    if (agentDirectoryOf(absolute)) {
      // Deleted first, so the map stays in the order of the batch (a file may be named twice).
      this.recent.delete(absolute);
      this.recent.set(absolute, { text, config, index });
    }
    for (const [key, entry] of this.recent) {
      if (entry.index >= index - KEPT_FOR) break;
      this.recent.delete(key);
    }
  }

  /** The siblings of an agent's file, answered from the batch or the disk. */
  siblingsOf(absolute: string): AgentSiblings {
    const agent = agentDirectoryOf(absolute);
    if (!agent) return NO_SIBLINGS;
    const inAgent = (inside: string) => path.resolve(agent.directory + inside);
    const fromText = siblingsFrom((inside) => this.text(inAgent(inside)));
    return {
      config: () => {
        const name = CONFIG_FILE_NAMES.find((inside) => this.text(inAgent(inside)) !== null);
        return (name !== undefined && this.recent.get(inAgent(name))?.config) || fromText.config();
      },
      defaultTemplate: () => fromText.defaultTemplate(),
    };
  }

  private text(absolute: string): string | null {
    const recent = this.recent.get(absolute);
    if (recent) return recent.text;
    const early = this.early.get(absolute);
    if (early) return utf8(early);
    if (this.listed.isAbsent(absolute)) return null;
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(absolute);
    } catch {
      return null;
    }
    if (this.pending.has(absolute)) this.early.set(absolute, bytes);
    return utf8(bytes);
  }
}

function utf8(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
