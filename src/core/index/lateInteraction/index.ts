export {
  LateInteractionIndex,
  PROBE_CENTROIDS,
  PROBE_PAGES,
  type LateInteractionIndexOptions,
  type PageHit,
} from './lateInteractionIndex';
export { exactMaxSim } from './maxSim';
