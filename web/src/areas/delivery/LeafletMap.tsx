import 'leaflet/dist/leaflet.css'
import L from 'leaflet'
import { type RefObject, useEffect, useRef } from 'react'
import { useConsole } from '../../app/session-context'
import { type Position, polygonsOf, type ZonePolygon } from '../../lib/geo'

// The maps draw the data themselves (zones as polygons, stops as numbered markers, the route as a
// line) with Leaflet's SVG renderer, so they work with no tile server: then land and coastlines
// (Natural Earth, ./basemap.ts) are drawn beneath them. CONSOLE_TILE_URL puts a raster background
// in their place for production.

export interface MapZone {
  id: string
  name: string
  colour: string | null
  polygon: ZonePolygon
  active: boolean
}

export interface MapStop {
  id: string
  sequence: number
  title: string
  /** [longitude, latitude], as GeoJSON. */
  position: Position
  tone: 'open' | 'done' | 'problem'
}

const DEFAULT_COLOUR = '#2563eb'
const toLatLng = ([lng, lat]: Position): L.LatLngTuple => [lat, lng]

/** Text for a tooltip, never parsed as HTML (zone names are whatever people typed). */
function textElement(text: string): HTMLElement {
  const span = document.createElement('span')
  span.textContent = text
  return span
}

function useLeaflet(container: RefObject<HTMLElement | null>) {
  const { config } = useConsole()
  const map = useRef<L.Map | null>(null)
  const layer = useRef<L.LayerGroup | null>(null)
  useEffect(() => {
    if (!container.current) return
    const instance = L.map(container.current, {
      keyboard: true,
      attributionControl: Boolean(config.tileUrl),
      zoomSnap: 0.25,
    }).setView([0, 0], 2)
    let removed = false
    if (config.tileUrl)
      L.tileLayer(config.tileUrl, { attribution: config.tileAttribution ?? '', maxZoom: 19 }).addTo(instance)
    else {
      // The shore to draw a zone against, under everything else; decorative, so hidden from screen
      // readers (the zones and stops say where things are).
      const pane = instance.createPane('basemap')
      pane.style.zIndex = '150'
      pane.setAttribute('aria-hidden', 'true')
      container.current.classList.add('offline-basemap')
      void import('./basemap').then(({ landGeoJson }) => {
        if (removed) return
        L.geoJSON(landGeoJson(), {
          pane: 'basemap',
          interactive: false,
          style: { color: '#8a96a3', weight: 1, fillColor: '#f3f0e6', fillOpacity: 1 },
        }).addTo(instance)
      })
    }
    layer.current = L.layerGroup().addTo(instance)
    map.current = instance
    return () => {
      removed = true
      instance.remove()
      map.current = null
      layer.current = null
    }
  }, [container, config.tileUrl, config.tileAttribution])
  return { map, layer }
}

function drawZones(
  group: L.LayerGroup,
  zones: readonly MapZone[],
  selectedId: string | null,
  onSelect?: (id: string) => void,
) {
  for (const zone of zones) {
    const colour = zone.colour ?? DEFAULT_COLOUR
    for (const rings of polygonsOf(zone.polygon)) {
      const shape = L.polygon(
        rings.map((ring) => ring.map(toLatLng)),
        {
          color: colour,
          weight: zone.id === selectedId ? 4 : 2,
          dashArray: zone.active ? undefined : '6 6',
          fillOpacity: zone.id === selectedId ? 0.3 : 0.15,
          // Not clickable unless choosing is offered: a click then reaches the map (a new corner).
          interactive: Boolean(onSelect),
        },
      )
      shape.bindTooltip(textElement(zone.active ? zone.name : `${zone.name} (inactive)`), {
        permanent: true,
        direction: 'center',
        className: 'zone-label',
      })
      if (onSelect) shape.on('click', () => onSelect(zone.id))
      shape.addTo(group)
    }
  }
}

function boundsOf(points: Position[]): L.LatLngBounds | null {
  if (points.length === 0) return null
  return L.latLngBounds(points.map(toLatLng))
}

const zonePoints = (zones: readonly MapZone[]) =>
  zones.flatMap((zone) => polygonsOf(zone.polygon).flatMap((rings) => rings[0] ?? []))

/** Where the device is ([longitude, latitude]) and within how many metres. */
export interface MapHere {
  position: Position
  accuracy: number
}

/**
 * A delivery plan: its zones, the depot, and the stops numbered in order joined by the route; with
 * `here`, the device's position too (the driver's view), followed as it moves.
 */
export function PlanMap({
  label,
  zones,
  depot,
  stops,
  here = null,
  size = 'tall',
}: {
  label: string
  zones: readonly MapZone[]
  depot: Position | null
  stops: readonly MapStop[]
  here?: MapHere | null
  size?: 'tall' | 'small'
}) {
  const container = useRef<HTMLElement>(null)
  const { map, layer } = useLeaflet(container)
  useHere(map, here, [...(depot ? [depot] : []), ...stops.map((s) => s.position)])
  // Stops redrawn (a report saved) keep the device's dot in view, without a refit on each new fix.
  const hereNow = useRef(here)
  hereNow.current = here
  useEffect(() => {
    const group = layer.current
    const instance = map.current
    if (!group || !instance) return
    group.clearLayers()
    drawZones(group, zones, null)
    const route = [...(depot ? [depot] : []), ...stops.map((s) => s.position)]
    if (route.length > 1)
      L.polyline(route.map(toLatLng), { color: '#111827', weight: 3, opacity: 0.7, dashArray: '8 6' }).addTo(
        group,
      )
    if (depot)
      L.marker(toLatLng(depot), {
        icon: L.divIcon({ className: 'depot-marker', html: 'D', iconSize: [22, 22] }),
        title: 'Depot',
        alt: 'Depot',
        keyboard: false,
      }).addTo(group)
    for (const stop of stops)
      L.marker(toLatLng(stop.position), {
        icon: L.divIcon({
          className: `stop-marker ${stop.tone === 'open' ? '' : stop.tone}`,
          html: String(stop.sequence),
          iconSize: [26, 26],
        }),
        title: `Stop ${stop.sequence}: ${stop.title}`,
        alt: `Stop ${stop.sequence}: ${stop.title}`,
        keyboard: true,
      }).addTo(group)
    const here = hereNow.current
    const bounds = boundsOf([...route, ...zonePoints(zones), ...(here ? [here.position] : [])])
    if (bounds) instance.fitBounds(bounds, { padding: [24, 24], maxZoom: 15, animate: false })
  }, [map, layer, zones, depot, stops])
  return <section ref={container} className={`map ${size}`} aria-label={label} />
}

/**
 * The device's position as a dot in its own layer (redrawing the stops would not move it, nor
 * would each new fix redraw them), with its accuracy as a circle. The first fix brings the stops
 * and the dot into view together; later ones only move the dot, so the person's own panning stays.
 */
function useHere(map: RefObject<L.Map | null>, here: MapHere | null, around: readonly Position[]) {
  const drawn = useRef<{ dot: L.Marker; circle: L.Circle } | null>(null)
  const aroundRef = useRef(around)
  aroundRef.current = around
  const lng = here?.position[0]
  const lat = here?.position[1]
  const accuracy = here?.accuracy
  useEffect(() => {
    const instance = map.current
    if (!instance) return
    if (lng === undefined || lat === undefined || accuracy === undefined) {
      drawn.current?.dot.remove()
      drawn.current?.circle.remove()
      drawn.current = null
      return
    }
    const at: L.LatLngTuple = [lat, lng]
    if (drawn.current) {
      drawn.current.dot.setLatLng(at)
      drawn.current.circle.setLatLng(at).setRadius(accuracy)
      return
    }
    const circle = L.circle(at, {
      radius: accuracy,
      color: '#1d4ed8',
      weight: 1,
      fillOpacity: 0.12,
      interactive: false,
    }).addTo(instance)
    const dot = L.marker(at, {
      icon: L.divIcon({ className: 'here-marker', iconSize: [18, 18] }),
      title: 'You are here',
      alt: 'You are here',
      keyboard: false,
      zIndexOffset: 1000,
    }).addTo(instance)
    // Named for assistive technology: a div icon carries only a title, which is not its name.
    const element = dot.getElement()
    element?.setAttribute('role', 'img')
    element?.setAttribute('aria-label', 'You are here')
    drawn.current = { dot, circle }
    const bounds = boundsOf([...aroundRef.current, [lng, lat]])
    if (bounds) instance.fitBounds(bounds, { padding: [24, 24], maxZoom: 15, animate: false })
  }, [map, lng, lat, accuracy])
  useEffect(
    () => () => {
      drawn.current = null
    },
    [],
  )
}

/**
 * Zones to look at and edit: click a zone to choose it; its corners can be dragged; while drawing,
 * each click on the map adds a corner. (The same corners can be typed in the form beside it.)
 */
export function ZoneMap({
  label,
  zones,
  selectedId,
  onSelect,
  corners,
  onCorners,
  drawing,
}: {
  label: string
  zones: readonly MapZone[]
  selectedId: string | null
  onSelect: (id: string) => void
  /** The corners being edited or drawn ([lng, lat]); null when nothing is being edited. */
  corners: Position[] | null
  onCorners: (corners: Position[]) => void
  drawing: boolean
}) {
  const container = useRef<HTMLElement>(null)
  const { map, layer } = useLeaflet(container)
  const fitted = useRef(false)
  const latest = useRef({ corners, onCorners, drawing })
  latest.current = { corners, onCorners, drawing }

  // While drawing, a click on the map adds a corner.
  useEffect(() => {
    const instance = map.current
    if (!instance) return
    const add = (event: L.LeafletMouseEvent) => {
      const { corners: current, onCorners: change, drawing: isDrawing } = latest.current
      if (!isDrawing) return
      change([...(current ?? []), [event.latlng.lng, event.latlng.lat]])
    }
    instance.on('click', add)
    container.current?.classList.toggle('drawing', drawing)
    return () => {
      instance.off('click', add)
    }
  }, [map, drawing])

  useEffect(() => {
    const group = layer.current
    const instance = map.current
    if (!group || !instance) return
    group.clearLayers()
    // The zone being edited is drawn from its corners, not from its saved shape. While drawing, a
    // click inside another zone is a corner of the new one, never a choice of that zone.
    drawZones(
      group,
      zones.filter((zone) => !(corners && zone.id === selectedId)),
      selectedId,
      drawing ? undefined : onSelect,
    )
    if (corners && corners.length > 0) {
      const outline =
        corners.length > 2 ? L.polygon(corners.map(toLatLng)) : L.polyline(corners.map(toLatLng))
      outline.setStyle({ color: '#b45309', weight: 3, fillOpacity: 0.2 })
      outline.addTo(group)
      corners.forEach((corner, index) => {
        const handle = L.marker(toLatLng(corner), {
          icon: L.divIcon({ className: 'vertex-marker', iconSize: [14, 14] }),
          draggable: true,
          title: `Corner ${index + 1}`,
          alt: `Corner ${index + 1}`,
          keyboard: false,
        })
        handle.on('drag', () => {
          const moved = corners.map(
            (c, i): L.LatLngTuple =>
              i === index ? [handle.getLatLng().lat, handle.getLatLng().lng] : toLatLng(c),
          )
          if (outline instanceof L.Polygon || outline instanceof L.Polyline) outline.setLatLngs(moved)
        })
        handle.on('dragend', () => {
          const { lat, lng } = handle.getLatLng()
          onCorners(corners.map((c, i): Position => (i === index ? [lng, lat] : c)))
        })
        handle.addTo(group)
      })
    }
    if (!fitted.current) {
      const bounds = boundsOf([...zonePoints(zones), ...(corners ?? [])])
      if (bounds) {
        instance.fitBounds(bounds, { padding: [24, 24], maxZoom: 15, animate: false })
        fitted.current = true
      }
    }
  }, [map, layer, zones, selectedId, onSelect, corners, onCorners, drawing])

  return <section ref={container} className="map tall" aria-label={label} />
}
