import { useQuery } from '@tanstack/react-query'
import { getProducts } from '../../api/generated/core/sdk.gen'
import { quoted } from '../../lib/odata'

/** At most this many SKUs in one `in (...)` filter (the API's limit is 100). */
const BATCH = 100

/** The `$filter` asking for the products of some SKUs, one per batch of 100. */
export function skuFilters(skus: readonly string[]): string[] {
  const unique = [...new Set(skus.filter((sku) => sku !== ''))].sort()
  const filters: string[] = []
  for (let i = 0; i < unique.length; i += BATCH)
    filters.push(
      `sku in (${unique
        .slice(i, i + BATCH)
        .map(quoted)
        .join(', ')})`,
    )
  return filters
}

/**
 * The unit of measure of each product named by SKU (lines of orders, BOMs and transfers carry the
 * product's SKU and name, not its unit): `unitOf(sku)` is its unit, or null until it has loaded.
 */
export function useUnits(skus: readonly string[]): (sku: string | null | undefined) => string | null {
  const filters = skuFilters(skus)
  const units = useQuery({
    queryKey: ['units', filters],
    enabled: filters.length > 0,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const found = new Map<string, string>()
      for (const $filter of filters) {
        const { data } = await getProducts({
          query: { Page: 1, PageSize: BATCH, $filter },
          throwOnError: true,
          signal,
        })
        for (const product of data.data) found.set(product.sku, product.unitOfMeasure)
      }
      return found
    },
  })
  return (sku) => (sku ? (units.data?.get(sku) ?? null) : null)
}
