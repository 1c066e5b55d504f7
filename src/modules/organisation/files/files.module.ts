import { defineModule } from '../../../platform/module.js'
import { registerFileRoutes } from './files.routes.js'

/** Uploaded files, stored locally or in an S3-compatible bucket. */
export const filesModule = defineModule({
  name: 'organisation/files',
  core: {
    tags: [{ name: 'Files', description: 'Uploaded files: upload and download (Customers)' }],
    routes: registerFileRoutes,
  },
  schemaNames: {
    UploadFile: { body: 'UploadFileRequest', data: 'FileResponse' },
  },
})
