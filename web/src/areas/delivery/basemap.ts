import type { Feature, FeatureCollection } from 'geojson'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import land from 'world-atlas/land-110m.json'

/**
 * The land of the world as GeoJSON (Natural Earth 1:110m, public domain, through world-atlas),
 * drawn under the zones when no tile server is configured. Its own chunk: loaded only by a map
 * that needs it, and only once.
 */
export function landGeoJson(): FeatureCollection | Feature {
  const topology = land as unknown as Topology<{ land: GeometryCollection }>
  return feature(topology, topology.objects.land)
}
