#!/usr/bin/env node
// The aten-ts command line (Node only): `npm start` trains a CNN on Fashion-MNIST (train.ts); `npx aten-ts tour`, `npx aten-ts dispatch-table <op>` and
// `npx aten-ts dump <op>` print an operator's computed dispatch table and registrations.
import { Command } from 'commander';
import { aten } from '../generated/Operators.js';
import { Dispatcher } from '../dispatch/Dispatcher.js';
import { tour } from './tour.js';
import { trainCommand } from './train.js';

function findOp(name: string) {
  aten(); // registers the built-in operators
  const d = Dispatcher.singleton();
  const qualified = name.includes('::') ? name : `aten::${name}`;
  const op = d.findOp(qualified);
  if (op === null) {
    const known = d.getAllOpNames();
    const close = known.filter((n) => n.includes(name.replace(/^aten::/, '').split('.')[0] ?? name));
    throw new Error(
      `unknown operator '${name}'. ${close.length > 0 ? `Did you mean one of: ${close.join(', ')}?` : `Known operators: ${known.join(', ')}`}`,
    );
  }
  return { d, op };
}

const program = new Command();
program.name('aten-ts').description("PyTorch's operator dispatcher and tensor core in TypeScript");
program
  .command('train', { isDefault: true })
  .description('train a LeNet-style CNN on Fashion-MNIST (the shipped subset, or --data DIR) and report test accuracy')
  .option('--data <dir>', 'a folder with the four Fashion-MNIST IDX files (.gz or not)')
  .option('--epochs <n>', 'epochs', '2')
  .option('--batch-size <n>', 'batch size', '64')
  .option('--lr <x>', 'learning rate of SGD (momentum 0.9)', '0.05')
  .option('--seed <n>', 'torch.manual_seed and the shuffling generator', '0')
  .option('--save <file>', "write the trained state_dict in PyTorch's format (torch.load reads it)")
  .option('--profile', "print torch.profiler's operator table and the dispatch overhead per call")
  .action(trainCommand);
program
  .command('tour')
  .description('print a short tour of real dispatch facts')
  .action(() => tour((line) => console.log(line)));
program
  .command('dispatch-table')
  .argument('<op>', 'operator name, e.g. aten::add.Tensor or view')
  .description('print the computed dispatch table of an operator (as torch._C._dispatch_dump_table)')
  .action((name: string) => {
    const { d, op } = findOp(name);
    process.stdout.write(d.dumpComputedTable(op));
  });
program
  .command('dump')
  .argument('<op>', 'operator name, e.g. aten::add.Tensor or view')
  .description('print the registrations of an operator (as torch._C._dispatch_dump)')
  .action((name: string) => {
    const { d, op } = findOp(name);
    process.stdout.write(d.dumpState(op));
  });
program
  .command('ops')
  .description('list the registered operators')
  .action(() => {
    aten();
    console.log(Dispatcher.singleton().getAllOpNames().join('\n'));
  });

program.parseAsync().catch((e: unknown) => {
  console.error(`aten-ts: ${(e as Error).message}`);
  process.exit(1);
});
