/**
 * `npm run scenario -- <file...>`: runs scripted fault scenarios against the real gateway (a
 * development tool: the scenario runner and its rig are never shipped).
 */
import { parseArgs } from 'node:util';
import { formatReport, loadScenarioFile, runScenario } from './scenario-runner.js';

const help = `Usage: npm run scenario -- <file.yaml> [more files...] [--broker <mqtt://host:port>] [--json]

Runs each scenario (docs/SCENARIOS.md) against the real gateway: the scenario's devices are
serial lines (socat pseudo-terminals) opened by the real serialport bindings, the broker is a
private Mosquitto when installed (else the embedded broker), and every expectation is checked on
what a subscriber receives. Prints PASS/FAIL per scenario; exits 1 if any fails.
  --broker <url>   use this broker instead of starting one
  --json           print the reports as JSON`;

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { broker: { type: 'string' }, json: { type: 'boolean' } } });
  if (positionals.length === 0) {
    console.error(help);
    return 2;
  }
  let failed = 0;
  const reports = [];
  for (const file of positionals) {
    let report: Awaited<ReturnType<typeof runScenario>>;
    try {
      report = await runScenario(loadScenarioFile(file), { brokerUrl: values.broker }, file);
    } catch (e) {
      report = { name: file, file, passed: false, steps: [], durationMs: 0, error: (e as Error).message };
    }
    reports.push(report);
    if (!report.passed) failed++;
    if (!values.json) console.log(formatReport(report));
  }
  if (values.json) console.log(JSON.stringify(reports, null, 2));
  else console.log(`\n${positionals.length - failed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

process.exitCode = await run(process.argv.slice(2));
