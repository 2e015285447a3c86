// A test runner command, `page-visibility` ({ hidden: boolean }): hides the test's page the way a user does, by
// opening another tab in front of it in the same window (the page's `document.visibilityState` becomes 'hidden'
// and it paints no frames), and shows it again by closing that tab and bringing the page to the front.
// Browser side: `executeServerCommand('page-visibility', { hidden: true })` from '@web/test-runner-commands'.

export function pageVisibilityPlugin() {
  /** The tab opened in front of each session's page. */
  const fronts = new Map();
  return {
    name: 'page-visibility-command',
    async executeCommand({ command, payload, session }) {
      if (command !== 'page-visibility') return undefined;
      if (session.browser.type !== 'puppeteer') throw new Error('page-visibility needs the Chrome launcher');
      const page = session.browser.getPage(session.id);
      const browser = await page.browser().target().createCDPSession();
      try {
        const front = fronts.get(session.id);
        if (front) {
          fronts.delete(session.id);
          await browser.send('Target.closeTarget', { targetId: front });
        }
        if (payload?.hidden) {
          const own = await page.createCDPSession();
          const { windowId } = await own.send('Browser.getWindowForTarget');
          await own.detach();
          const { targetId } = await browser.send('Target.createTarget', {
            url: 'about:blank',
            windowId,
            background: false,
          });
          fronts.set(session.id, targetId);
        } else {
          await page.bringToFront();
        }
      } finally {
        await browser.detach();
      }
      return true;
    },
  };
}
