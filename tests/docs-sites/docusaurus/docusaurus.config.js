// A tiny Docusaurus site embedding two lessons through docs/embedding.md's component.
export default {
  title: 'List-watch notes',
  url: 'SITE',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  presets: [['classic', { docs: false, blog: false }]],
  themeConfig: { colorMode: { defaultMode: 'light', respectPrefersColorScheme: false } },
};
