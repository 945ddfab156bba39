import { Argument, Command, Option } from 'commander';
import { isKinded, recordKind } from './arg-kinds.js';

/**
 * commander's Command that also takes the declarations of arg-kinds.ts (`arg`, `opt`): it makes
 * commander's Argument or Option of them and remembers their kind for completion and id prefixes.
 * (The declarations stay plain data so the fast path can read them without loading commander.)
 */
export class KindedCommand extends Command {
  override createCommand(name?: string): Command {
    return new KindedCommand(name);
  }

  override addArgument(a: Argument): this {
    if (!isKinded(a)) return super.addArgument(a);
    const made = new Argument(a.spec, a.description);
    recordKind(made, a.kind);
    return super.addArgument(made);
  }

  override addOption(o: Option): this {
    if (!isKinded(o)) return super.addOption(o);
    const made = new Option(o.spec, o.description);
    recordKind(made, o.kind);
    return super.addOption(made);
  }
}
