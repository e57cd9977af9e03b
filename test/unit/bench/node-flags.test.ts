import { describe, expect, it } from 'vitest';
import { productionNodeFlags } from '../../../bench/lib/node-flags.js';

describe('the node flags the bench takes from the shipped unit', () => {
  it('reads the flags of deploy/tablegw.service (the young generation size among them)', () => {
    const flags = productionNodeFlags();
    expect(flags).toContain('--max-semi-space-size=64');
    expect(flags.every((f) => f.startsWith('--'))).toBe(true);
  });

  it('takes what stands between node and the script, nothing of the script\'s own arguments', () => {
    const unit = '[Service]\nExecStart=/usr/bin/node --max-semi-space-size=32 --stack-size=2000 /opt/x/main.js start --config /etc/c.yaml\n';
    expect(productionNodeFlags(unit)).toEqual(['--max-semi-space-size=32', '--stack-size=2000']);
    expect(productionNodeFlags('ExecStart=/usr/bin/node /opt/x/main.js start --verbose\n')).toEqual([]);
  });

  it('a unit without ExecStart, or one that runs no script, is an error', () => {
    expect(() => productionNodeFlags('[Service]\nType=simple\n')).toThrow(/no ExecStart/);
    expect(() => productionNodeFlags('ExecStart=/usr/bin/tablegw start\n')).toThrow(/does not run node/);
  });
});
