import { defineModule } from '../../../platform/module.js'
import { registerFileRoutes } from './files.routes.js'
import * as filePurpose from './migrations/20270101090000-file-purpose.js'

/** Uploaded files, stored locally or in an S3-compatible bucket. */
export const filesModule = defineModule({
  name: 'organisation/files',
  core: {
    tags: [
      {
        name: 'Files',
        description: 'Uploaded files: upload and download (Customers; proof-of-delivery images: Shipments)',
      },
    ],
    routes: registerFileRoutes,
  },
  migrations: {
    tenant: [{ name: '20270101090000-file-purpose', sql: filePurpose.sql }],
  },
  schemaNames: {
    UploadFile: { body: 'UploadFileRequest', data: 'FileResponse' },
  },
})
