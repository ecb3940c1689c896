// @ts-check
// `make room`: serves the release bundle to the room, on this machine's first non-loopback
// IPv4 address, and prints the address to open with a QR code for the terminal. The bundle
// is served as a static host serves it (gzip, hashed files immutable). Plain http on a LAN
// address is not a secure context: browsers there allow no clipboard and no offline cache
// (docs/workshops.md, "Serving a room"); where the machine has no such address it says so and serves on
// loopback. ROOM_PORT chooses the port (default 8090).
import { networkInterfaces } from 'node:os';
import { createRequire } from 'node:module';
import { serve } from './static_server.mjs';

const require = createRequire(import.meta.url);
const qrcode = require('qrcode-generator');
const dist = process.env.DIST_DIR ?? 'dist';
const port = Number(process.env.ROOM_PORT ?? 8090);

/// The first IPv4 address that is not loopback, by interface name order.
function roomAddress() {
  const interfaces = networkInterfaces();
  for (const name of Object.keys(interfaces).sort()) {
    const found = interfaces[name].find((a) => a.family === 'IPv4' && !a.internal);
    if (found) return found.address;
  }
  return null;
}

/// The QR code in half-block characters: light modules drawn, dark ones left blank, as terminal
/// QR printers do for a dark background; two rows of modules a line, with a quiet zone.
export function terminalQr(text) {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const quiet = 2;
  const light = (r, c) => r < 0 || c < 0 || r >= n || c >= n || !qr.isDark(r, c);
  const lines = [];
  for (let r = -quiet; r < n + quiet; r += 2) {
    let line = '';
    for (let c = -quiet; c < n + quiet; c++) {
      const [top, bottom] = [light(r, c), light(r + 1, c)];
      line += top && bottom ? '█' : top ? '▀' : bottom ? '▄' : ' ';
    }
    lines.push(line);
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const address = roomAddress();
  const host = address ?? '127.0.0.1';
  const server = await serve(dist, '/', { gzip: true, immutable: true, host, port }).catch((e) => {
    console.error(`make room: cannot serve on ${host}:${port}: ${e.message} (choose another with ROOM_PORT=…)`);
    process.exit(1);
  });
  const url = `http://${host}:${server.address().port}/`;
  if (!address) {
    console.log('This machine has no network address other than loopback: the room cannot reach it.');
    console.log(`Serving on ${url} for this machine only.`);
  } else {
    console.log(`Serving the playground to the room at ${url}`);
    console.log(terminalQr(url));
    console.log('Open it on a phone or a laptop on the same network; Ctrl-C stops it.');
  }
}
