// The browser the page's tests and its bench drive: Debian's Chromium (apt-get install chromium;
// .ci/run installs it), or the one KAIROS_CHROMIUM names, started so that it fetches nothing from
// the network by itself and needs no GPU or sandbox helper.
export const CHROMIUM = process.env.KAIROS_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
