import { useEffect } from 'react';

// docs/embedding.md, "In a documentation page": the loader added once, in the browser only.
export default function Playground({ lesson, step, lang }) {
  useEffect(() => {
    if (document.querySelector('script[src="PLAYGROUND/embed.js"]')) return;
    document.body.append(Object.assign(document.createElement('script'), { src: 'PLAYGROUND/embed.js' }));
  }, []);
  return <div data-informer-playground={lesson} data-step={step} data-lang={lang} />;
}
