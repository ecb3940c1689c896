// @ts-check
// The system Chromium, headless, through playwright-core (never a downloaded browser): the build
// draws its first screen with it, and the end-to-end suite and Lighthouse drive it.
import { chromium } from 'playwright-core';

export function launchChromium(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-dev-shm-usage', ...extraArgs],
  });
}
