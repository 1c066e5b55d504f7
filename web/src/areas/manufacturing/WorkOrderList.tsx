import { PageHeader } from '../../components/PageHeader'

export default function Page() {
  return <PageHeader title="WorkOrderList" />
}
