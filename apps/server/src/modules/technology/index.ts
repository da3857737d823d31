import { technicalDocumentResource } from '@ringmes/domain';
import type { ServerArea } from '../../platform/resource/area.ts';
import {
  revisionAttachmentOwner,
  technicalDocumentHooks,
  technicalDocumentRoutes,
  technicalDocumentTransitions,
} from './technical-document.ts';

/** 技术部: technical documents (drawings, process files) with their revisions and files. */
export const technologyArea: ServerArea = {
  name: 'technology',
  resources: [
    {
      def: technicalDocumentResource,
      hooks: technicalDocumentHooks,
      transitions: technicalDocumentTransitions,
    },
  ],
  attachments: [revisionAttachmentOwner],
  routes: technicalDocumentRoutes,
};
