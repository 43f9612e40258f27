import type { NextFunction, Request, Response } from 'express';
import type { MetricsService } from '@teamchat/platform';

/** Times every request by its route pattern (not its path, which would explode the labels). */
export function httpMetrics(metrics: MetricsService) {
  return (req: Request, res: Response, next: NextFunction) => {
    const stop = metrics.httpDuration.startTimer();
    res.on('finish', () => {
      // Routes served ahead of Nest's router (GET /events) name themselves in res.locals.route.
      const route = (res.locals.route as string | undefined) ?? (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      stop({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
}
