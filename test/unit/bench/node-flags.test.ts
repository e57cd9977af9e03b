import { describe, expect, it } from 'vitest';
import { benchExtraNodeFlags, MANY_TABLES_NODE_FLAGS, manyTablesDefaultsFlags, productionNodeFlags } from '../../../dev/bench/lib/node-flags.js';

describe('the node flags the bench takes from the shipped files', () => {
  it('the unit starts node without flags; the many-table setting of deploy/tablegw.default is the one the throughput ramp uses', () => {
    expect(productionNodeFlags()).toEqual([]);
    expect(manyTablesDefaultsFlags()).toEqual([...MANY_TABLES_NODE_FLAGS]);
    expect(MANY_TABLES_NODE_FLAGS).toEqual(['--max-semi-space-size=64', '--initial-old-space-size=256']);
  });

  it("takes what stands between node and the script, nothing of the script's own arguments", () => {
    const unit = '[Service]\nExecStart=/usr/bin/node --max-semi-space-size=32 --stack-size=2000 /opt/x/main.js start --config /etc/c.yaml\n';
    expect(productionNodeFlags(unit)).toEqual(['--max-semi-space-size=32', '--stack-size=2000']);
    expect(productionNodeFlags('ExecStart=/usr/bin/node /opt/x/main.js start --verbose\n')).toEqual([]);
    expect(manyTablesDefaultsFlags('# comment\nNODE_OPTIONS=--max-semi-space-size=16 --jitless\n')).toEqual(['--max-semi-space-size=16', '--jitless']);
  });

  it('a unit without ExecStart, one that runs no script, or defaults without NODE_OPTIONS are errors', () => {
    expect(() => productionNodeFlags('[Service]\nType=simple\n')).toThrow(/no ExecStart/);
    expect(() => productionNodeFlags('ExecStart=/usr/bin/tablegw start\n')).toThrow(/does not run node/);
    expect(() => manyTablesDefaultsFlags('# nothing\n')).toThrow(/no NODE_OPTIONS/);
  });

  it('TEG_BENCH_NODE_FLAGS adds its words, nothing when unset or blank', () => {
    expect(benchExtraNodeFlags('--cpu-prof  --cpu-prof-dir=/tmp/p ')).toEqual(['--cpu-prof', '--cpu-prof-dir=/tmp/p']);
    expect(benchExtraNodeFlags(undefined)).toEqual([]);
    expect(benchExtraNodeFlags('   ')).toEqual([]);
  });
});
