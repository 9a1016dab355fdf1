/**
 * `npm run ai -- <command>`: the AI engines from the command line, with the same provider code and
 * configuration (environment) as the server:
 *   transcribe FILE                 prints the text of any audio ffmpeg reads
 *   translate --to es [--from en] TEXT
 *   summarize FILE [--date YYYY-MM-DD]   a transcript of `Speaker: text` lines → summary JSON
 */
import { ConfigError, loadConfig } from '../config.js';
import { summarizeCommand } from './summarize.js';
import { transcribeCommand } from './transcribe.js';
import { translateCommand } from './translate.js';

const USAGE = `usage: npm run ai -- <command>
  transcribe FILE                          print the text of an audio file
  translate --to LANG [--from LANG] TEXT   print the translation of TEXT
  summarize FILE [--date YYYY-MM-DD]       print the summary JSON of a "Speaker: text" transcript`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
  switch (command) {
    case 'transcribe':
      return transcribeCommand(args, config);
    case 'translate':
      return translateCommand(args, config);
    case 'summarize':
      return summarizeCommand(args, config);
    default:
      console.error(USAGE);
      return command === undefined || command === '--help' || command === '-h' ? 0 : 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
