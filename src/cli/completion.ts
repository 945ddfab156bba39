import type { Command } from 'commander';
import { bashScript } from './completion/bash.js';
import { fishScript } from './completion/fish.js';
import { commandSpecs } from './completion/spec.js';
import { zshScript } from './completion/zsh.js';

const HEADER = '# Generated from the kairos command tree by `npm run completions`; do not edit.';

/** Completion script for the shell, generated from the commander tree (completions/ is drift-tested). */
export async function completionScript(program: Command, shell: 'bash' | 'zsh' | 'fish'): Promise<string> {
  const nodes = await commandSpecs(program);
  if (shell === 'bash') return bashScript(nodes, HEADER);
  if (shell === 'zsh') return zshScript(nodes, HEADER);
  return fishScript(nodes, HEADER);
}
