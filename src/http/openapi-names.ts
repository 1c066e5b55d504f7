/**
 * Names of the records in the published OpenAPI documents, by operationId: the request body and
 * the record in the success envelope (`data`, or the items of a paged `data`). Names follow the
 * platform's contract where it gives them (e.g. `CreateCustomerRequest`, `SessionResponse`) and
 * the same pattern where it does not (`<Operation>Command` bodies, `<Record>Response` records).
 *
 * A schema may also name itself with a TypeBox `title` where it is defined, which wins over this
 * table. An operation in neither gets `<OperationId>Request` / `<OperationId>Response`, so no
 * generated client ever sees an anonymous type.
 */
/** `data` as the record of each of `operationIds`: the contract names one record for many operations. */
const returning = (data: string, operationIds: readonly string[]) =>
  Object.fromEntries(operationIds.map((id) => [id, { data }]))

export const OPERATION_SCHEMA_NAMES: Readonly<Record<string, { body?: string; data?: string }>> = {
  // Core API: me, team, invitations
  GetMe: { data: 'MeResponse' },
  GetTeamMembers: { data: 'TeamMemberResponse' },
  ChangeTeamMemberRole: { body: 'ChangeTeamMemberRoleCommand', data: 'TeamMemberResponse' },
  GetRoles: { data: 'RoleResponse' },
  CreateRole: { body: 'CreateRoleCommand', data: 'RoleResponse' },
  UpdateRole: { body: 'UpdateRoleCommand', data: 'RoleResponse' },
  InviteTeamMember: { body: 'InviteTeamMemberCommand', data: 'InvitationResponse' },
  // Core API: orders
  GetOrders: { data: 'OrderResponse' },
  CreateOrder: { body: 'CreateOrderCommand', data: 'OrderResponse' },
  GetOrder: { data: 'OrderResponse' },
  UpdateOrder: { body: 'UpdateOrderCommand', data: 'OrderResponse' },
  ConfirmOrder: { data: 'OrderResponse' },
  FulfillOrder: { data: 'OrderResponse' },
  CancelOrder: { data: 'OrderResponse' },
  // Core API: business and settings
  GetBusiness: { data: 'BusinessResponse' },
  GetMetadataForBusiness: { data: 'BusinessDefaultSettings' },
  CreateBusiness: { body: 'CreateBusinessRequest', data: 'BusinessResponse' },
  UpdateBusiness: { body: 'UpdateBusinessCommand', data: 'BusinessResponse' },
  GetBusinessChildren: { data: 'BusinessResponse' },
  GetAllBusinessConfigurations: { data: 'AppConfigurationResponse' },
  SaveBusinessAppConfiguration: { body: 'SaveBusinessAppConfigurationCommand' },
  GetBusinessConfigurationsByModule: { data: 'BusinessAppConfigurationResponse' },
  GetAllBusinessCustomerAppConfigurations: { data: 'BusinessCustomerAppConfigurationResponse' },
  SaveBusinessCustomerAppConfiguration: { body: 'SaveCustomerAppConfigurationCommand' },
  // Core API: customers
  GetAllCustomerGroups: { data: 'CustomerGroupResponse' },
  CreateCustomerGroup: { body: 'CreateCustomerGroupCommand', data: 'CustomerGroupResponse' },
  GetCustomerGroup: { data: 'CustomerGroupResponse' },
  UpdateCustomerGroup: { body: 'UpdateCustomerGroupCommand', data: 'CustomerGroupResponse' },
  GetAllCustomers: { data: 'CustomerResponse' },
  CreateCustomer: { body: 'CreateCustomerRequest', data: 'CustomerResponse' },
  GetCustomer: { data: 'CustomerResponse' },
  UpdateCustomer: { body: 'UpdateCustomerRequest', data: 'CustomerResponse' },
  BulkDeleteCustomers: { body: 'CustomerBulkDeleteCommand' },
  CreateCustomerContact: { body: 'CreateContactCommand', data: 'ContactResponse' },
  UpdateCustomerContact: { body: 'UpdateContactCommand', data: 'ContactResponse' },
  DeleteCustomerContact: { data: 'ContactResponse' },
  GetActivityTraces: { data: 'ActivityTrace' },
  AddActivityTrace: { body: 'AddActivityTraceRequest', data: 'CustomerResponse' },
  AddCustomerMetadata: { body: 'CustomerMetadataRequest', data: 'CustomerResponse' },
  AddCustomerFileAttachment: { body: 'AddFileAttachmentRequest', data: 'CustomerResponse' },
  RemoveCustomerFileAttachment: { data: 'CustomerResponse' },
  GetKpiMetrics: { data: 'CustomerKpiMetricsResponse' },
  GetSalesData: { data: 'CustomerDetailSalesHistoryWrapperResponse' },
  UploadFile: { body: 'UploadFileRequest', data: 'FileResponse' },
  // Core API: delivery and manufacturing records, one name each whichever operation answers them
  ...returning('ShipmentResponse', [
    'GetShipments',
    'CreateShipment',
    'GetShipment',
    'UpdateShipment',
    'AssignShipment',
    'DispatchShipment',
    'ReturnShipment',
    'CancelShipment',
    'DeliverShipment',
    'FailShipment',
    'GetUnassignedShipments',
  ]),
  ...returning('DispatchResponse', [
    'GetTrips',
    'SaveDispatch',
    'GetDispatchByShipmentId',
    'GetDispatch',
    'UpdateDispatch',
    'ScheduleDispatch',
    'DispatchPlan',
    'CompleteDispatch',
    'CancelDispatch',
  ]),
  ...returning('DeliveryZoneResponse', [
    'GetAllDeliveryZones',
    'CreateDeliveryZone',
    'GetZonesInsideCoordinates',
    'GetDeliveryZone',
    'UpdateDeliveryZone',
  ]),
  ...returning('VehicleResponse', ['GetVehicles', 'CreateVehicle', 'GetVehicle', 'UpdateVehicle']),
  ...returning('FulfillmentProviderResponse', [
    'GetCarriers',
    'ConfigureCarrier',
    'GetFulfillmentProvider',
    'UpdateCarrier',
    'DeleteConfiguredCarrier',
  ]),
  ...returning('DimensionPresetResponse', [
    'GetPackageSizes',
    'CreateDimensionPreset',
    'UpdateDimensionPreset',
    'GetPackageSizeTemplates',
    'GetDefaultPackageSize',
  ]),
  ...returning('ProductResponse', ['GetProducts', 'CreateProduct', 'GetProduct', 'UpdateProduct']),
  ...returning('BomResponse', [
    'GetBoms',
    'CreateBom',
    'GetBom',
    'UpdateBom',
    'ActivateBom',
    'ReviseBom',
    'AddBomLineItem',
    'UpdateBomLineItem',
    'DeleteBomLineItem',
  ]),
  ...returning('WorkOrderResponse', [
    'GetWorkOrders',
    'CreateWorkOrder',
    'GetBomWorkOrders',
    'GetWorkOrder',
    'UpdateWorkOrder',
    'ReleaseWorkOrder',
    'StartWorkOrder',
    'CancelWorkOrder',
    'CompleteWorkOrder',
  ]),
  // Global API
  Login: { body: 'AuthenticateRequest', data: 'LoginResponse' },
  SelectOrganization: { body: 'SelectOrganizationRequest', data: 'SessionResponse' },
  NewToken: { data: 'SessionResponse' },
  GetAccessTokens: { data: 'AccessTokenResponse' },
  CreateApiToken: { body: 'CreateApiKeyRequest', data: 'AccessTokenResponse' },
  MintOneTimeToken: { body: 'MintOneTimeTokenRequest', data: 'OneTimeTokenResponse' },
  RedeemOneTimeToken: { body: 'RedeemOneTimeTokenRequest', data: 'SessionResponse' },
  RegisterOrganization: { body: 'RegisterOrganizationRequest', data: 'RegisterOrganizationBusinessResponse' },
  ForgotPassword: { body: 'ForgotPasswordRequest' },
  ResetPassword: { body: 'ResetPasswordRequest' },
  CompleteInvitation: { body: 'CompleteInvitationRequest' },
  GetJwks: { data: 'JsonWebKeySet' },
  Live: { data: 'HealthResponse' },
  Ready: { data: 'HealthResponse' },
}
