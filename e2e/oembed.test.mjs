// @ts-check
// A bundle built for an absolute public URL describes each lesson for oEmbed and Open Graph
// (scripts/oembed.mjs, a release build's post-build step); one built for a relative URL does not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST } from './browser.mjs';

function stageWith(publicUrl) {
  const stage = mkdtempSync(join(tmpdir(), 'stage-'));
  cpSync(join(DIST, 'posters', 'lessons.js'), join(stage, 'posters', 'lessons.js'));
  execFileSync('node', ['scripts/oembed.mjs'], { env: { ...process.env, TRUNK_STAGING_DIR: stage, TRUNK_PUBLIC_URL: publicUrl, TRUNK_PROFILE: 'release' } });
  return stage;
}

test('a bundle at an absolute address describes every lesson for oEmbed, and its page names the description', () => {
  const stage = stageWith('https://docs.example.com/playground/');
  const lessons = JSON.parse(readFileSync(join(DIST, 'posters', 'lessons.js'), 'utf8').replace(/^[^{]*/, '').replace(/;\s*$/, ''));
  const files = readdirSync('static/scenarios').filter((f) => /^\d\d-.+\.json$/.test(f));
  assert.equal(Object.keys(lessons).length, files.length, 'one entry per lesson file');
  const described = JSON.parse(readFileSync(join(stage, 'oembed', 'stale-read.json'), 'utf8'));
  assert.equal(described.type, 'rich');
  assert.equal(described.version, '1.0');
  assert.equal(described.title, `9. ${lessons['stale-read'].title.en}`);
  assert.match(described.html, /^<iframe src="https:\/\/docs\.example\.com\/playground\/\?scenario=stale-read&amp;embed=1" /);
  assert.equal(described.thumbnail_url, 'https://docs.example.com/playground/posters/stale-read-en-light.svg');
  const page = readFileSync(join(stage, 'lessons', 'stale-read.html'), 'utf8');
  assert.match(page, /<link rel="alternate" type="application\/json\+oembed" href="https:\/\/docs\.example\.com\/playground\/oembed\/stale-read\.json"/);
  assert.match(page, /<meta http-equiv="refresh" content="0; url=https:\/\/docs\.example\.com\/playground\/\?scenario=stale-read">/);
  assert.match(page, /<meta property="og:image" content="https:\/\/docs\.example\.com\/playground\/posters\/stale-read-en-light\.svg">/);
  assert.match(page, /<meta name="description" content="A lesson of informer-playground/, 'its summary gives its questions away');
  assert.match(readFileSync(join(stage, 'lessons', 'sandbox.html'), 'utf8'), /<meta name="description" content="An empty cluster/);
});

test('a bundle at a relative address writes no oEmbed files (oEmbed needs absolute addresses)', () => {
  const stage = stageWith('/playground/');
  assert.equal(existsSync(join(stage, 'oembed')), false);
  assert.equal(existsSync(join(stage, 'lessons')), false);
});
