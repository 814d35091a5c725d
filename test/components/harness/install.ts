/** Installs the stand-in engine from the test's set-up; imported first, before the client reads `window.quire`. */
import { SETUP_KEY, type HarnessSetup } from './control';
import { installStandIn } from './standInBridge';

const setup = (window as unknown as Record<string, HarnessSetup | undefined>)[SETUP_KEY];
if (!setup) throw new Error('The test gave the harness no set-up.');
installStandIn(setup);

export const harnessSetup: HarnessSetup = setup;
