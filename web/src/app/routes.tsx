import { lazy } from 'react'

// Each area is its own chunk, fetched when first opened; the dashboard (the first screen after
// signing in) starts downloading as soon as the workspace opens.
export const loadDashboard = () => import('../areas/dashboard/Dashboard')

export const Dashboard = lazy(loadDashboard)
export const CustomerList = lazy(() => import('../areas/customers/CustomerList'))
export const CustomerDetail = lazy(() => import('../areas/customers/CustomerDetail'))
export const ProductList = lazy(() => import('../areas/stock/ProductList'))
export const ProductDetail = lazy(() => import('../areas/stock/ProductDetail'))
export const BomList = lazy(() => import('../areas/manufacturing/BomList'))
export const BomDetail = lazy(() => import('../areas/manufacturing/BomDetail'))
export const WorkOrderList = lazy(() => import('../areas/manufacturing/WorkOrderList'))
export const WorkOrderDetail = lazy(() => import('../areas/manufacturing/WorkOrderDetail'))
export const DeliveryToday = lazy(() => import('../areas/delivery/DeliveryToday'))
export const PlanDetail = lazy(() => import('../areas/delivery/PlanDetail'))
export const ShipmentList = lazy(() => import('../areas/delivery/ShipmentList'))
export const ShipmentDetail = lazy(() => import('../areas/delivery/ShipmentDetail'))
export const Zones = lazy(() => import('../areas/delivery/Zones'))
export const Notifications = lazy(() => import('../areas/notifications/NotificationsPage'))
export const SqlConsole = lazy(() => import('../areas/sql/SqlConsole'))
