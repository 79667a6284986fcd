/** A point on the earth, in degrees (Census ZCTA internal points are WGS 84 latitude and longitude). */
export interface Point {
  lat: number;
  lon: number;
}

const EARTH_RADIUS_MILES = 3958.8;
const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in miles (haversine formula), to a tenth of a mile. */
export function milesBetween(a: Point, b: Point): number {
  const dLat = toRadians(b.lat - a.lat);
  const dLon = toRadians(b.lon - a.lon);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLon / 2) ** 2;
  const miles = 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
  return Math.round(miles * 10) / 10;
}

/** The latitude/longitude box that holds every point within `miles` of `center` (for an index range). */
export function boxAround(center: Point, miles: number): { lat: [number, number]; lon: [number, number] } {
  const dLat = miles / 69.0;
  // A degree of longitude shrinks with the cosine of the latitude; near the poles the box is every longitude.
  const cos = Math.cos(toRadians(center.lat));
  const dLon = cos < 0.01 ? 180 : miles / (69.17 * cos);
  return {
    lat: [center.lat - dLat, center.lat + dLat],
    lon: [center.lon - dLon, center.lon + dLon],
  };
}
