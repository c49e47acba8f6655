/** The fuel API through the generated client, on the page's own origin. */
import { createFuelClient } from '../../generated/fuel/client';

export const api = createFuelClient({ baseUrl: window.location.origin });
