// @ts-check
// `make room`: the bundle served on the machine's first network address, printed with a QR
// code for the terminal; where the machine has none, it says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { terminalQr } from '../scripts/room.mjs';

test('make room serves the bundle on a network address and prints it with a QR code', async () => {
  const room = spawn('node', ['scripts/room.mjs'], { env: { ...process.env, ROOM_PORT: '0' } });
  try {
    let out = '';
    const url = await new Promise((found, fail) => {
      room.stdout.on('data', (chunk) => {
        out += chunk;
        const match = /(http:\/\/[^\s]+\/)/.exec(out);
        if (match && /Ctrl-C|this machine only/.test(out)) found(match[1]);
      });
      room.on('exit', (code) => fail(new Error(`room.mjs exited ${code}: ${out}`)));
    });
    const hasNetwork = Object.values(networkInterfaces()).flat().some((a) => a.family === 'IPv4' && !a.internal);
    if (hasNetwork) {
      assert.doesNotMatch(url, /127\.0\.0\.1/, 'a network address, not loopback');
      assert.ok(out.includes(terminalQr(url)), 'the QR code of that address is printed');
    } else {
      assert.match(out, /no network address other than loopback/);
    }
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /informer-playground/);
  } finally {
    room.kill();
  }
});

test("the terminal's QR code is drawn in half blocks with a quiet zone", () => {
  const lines = terminalQr('http://192.0.2.2:8090/').split('\n');
  assert.ok(lines.length >= 12 && lines.every((l) => l.length === lines[0].length), 'a square of even rows');
  assert.match(lines[0], /^█+$/, 'the quiet zone is light');
  assert.ok(lines.some((l) => /[▀▄ ]/.test(l)), 'dark modules are drawn');
});
