// @ts-check
// The example page's buttons: each sends a command of the host-page API to the embedded
// lesson, and every event the frame sends back is shown beside them.
(function () {
  const origin = new URL('./', /** @type {HTMLScriptElement} */ (document.currentScript).src).origin;
  const said = document.getElementById('said');
  const frame = () => /** @type {HTMLIFrameElement} */ (document.querySelector('#driven iframe'));
  for (const button of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-command]'))) {
    button.addEventListener('click', () => {
      const message = { type: `informer-playground:${button.dataset.command}` };
      if (button.dataset.step) message.step = Number(button.dataset.step);
      if (button.dataset.scenario) message.scenario = button.dataset.scenario;
      if (button.dataset.lang) message.lang = button.dataset.lang;
      frame()?.contentWindow.postMessage(JSON.stringify(message), origin);
    });
  }
  window.addEventListener('message', (event) => {
    if (event.origin !== origin || event.source !== frame()?.contentWindow || typeof event.data !== 'string') return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === 'informer-playground:step') said.textContent = `step ${message.step}: ${message.line}`;
    if (message.type === 'informer-playground:answered') said.textContent = `question ${message.question + 1}: ${message.correct ? 'right' : 'not right'}`;
    if (message.type === 'informer-playground:refused') said.textContent = `refused: ${message.why}`;
  });
})();
