import { notFound } from '../../errors.js'

/** 404 for an order of another business (or none): one answer for every module of the area that looks orders up. */
export const orderNotFound = () => notFound('order_not_found', 'No order of this business has this id.')
