// Regenerates completions/ from the command tree (run by `npm run completions`).
import { writeFileSync } from 'node:fs';
import { completionScript } from '../dist/cli/completion.js';
import { createProgram } from '../dist/cli/program.js';

const program = await createProgram({ streams: process, env: process.env });
const files = { bash: 'completions/kairos.bash', zsh: 'completions/_kairos', fish: 'completions/kairos.fish' };
for (const [shell, file] of Object.entries(files)) {
  writeFileSync(new URL(`../${file}`, import.meta.url), await completionScript(program, shell));
  console.log(`wrote ${file}`);
}
