#!/usr/bin/env node
// The aten-ts command line (Node only).
import { Command } from 'commander';
import { tour } from './tour.js';

const program = new Command();
program.name('aten-ts').description("PyTorch's operator dispatcher and tensor core in TypeScript");
program
  .command('tour', { isDefault: true })
  .description('print a short tour of real dispatch facts')
  .action(() => tour((line) => console.log(line)));

program.parse();
