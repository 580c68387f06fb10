/**
 * `agentcfg`: the engine from the command line, for pipelines and pre-commit hooks.
 * Exit status: 0 success, 1 problems found (errors), 2 usage or syntax errors.
 */
import { UsageError } from './args';
import { COMMANDS } from './commands/index';
import type { CliIo } from './io';

const io: CliIo = {
  cwd: process.cwd(),
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return ['usage: agentcfg <command> [options]', '', ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`), '', 'agentcfg <command> --help shows the usage of a command.', ''].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(help());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`agentcfg: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`usage: ${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`agentcfg ${command.name}: ${err.message}\nusage: ${command.usage}\n`);
      return 2;
    }
    io.err(`agentcfg ${command.name}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`agentcfg: ${String(err)}\n`);
    process.exitCode = 1;
  },
);
