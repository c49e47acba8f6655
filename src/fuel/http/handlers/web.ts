/**
 * The web map (`GET /`) and its built files (`GET /static/{file}`). The base style's address goes into the
 * page as `<meta name="map-style">` and its origin through the page's policy (tiles, glyphs and sprites
 * come from the style's host); a style on the fuel server itself needs nothing beyond 'self'.
 */
import type { Response } from 'express';
import { sameOriginPolicy, sendFavicon, sendWebAsset, sendWebPage } from '../../../common/http/web-page';
import { NotFound } from '../../model/errors';
import type { FuelHandlers } from '../handler';
import type { FuelWiring } from '../wiring';

function mapPagePolicy(styleUrl: string): string {
  let origin: string[] = [];
  try {
    const parsed = new URL(styleUrl);
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') origin = [parsed.origin];
  } catch {
    // A path on the fuel server itself: the policy's 'self'.
  }
  return sameOriginPolicy({ connect: origin, img: origin });
}

export function webHandlers(wiring: FuelWiring) {
  return {
    getWebPage: async (_req, res) => {
      const { config, webDist } = wiring;
      sendWebPage(res as Response, {
        service: 'fuel',
        distRoot: webDist,
        contentSecurityPolicy: mapPagePolicy(config.map.styleUrl),
        meta: { 'map-style': config.map.styleUrl },
      });
    },
    getWebAsset: async (req, res) => {
      const { config, webDist } = wiring;
      const sent = await sendWebAsset(res as Response, {
        service: 'fuel',
        distRoot: webDist,
        file: req.params.file,
        contentSecurityPolicy: mapPagePolicy(config.map.styleUrl),
      });
      if (!sent) throw new NotFound('Not found');
    },
    getFavicon: async (_req, res) => {
      const sent = await sendFavicon(res as Response, { service: 'fuel', distRoot: wiring.webDist });
      if (!sent) throw new NotFound('Not found');
    },
  } satisfies FuelHandlers;
}
