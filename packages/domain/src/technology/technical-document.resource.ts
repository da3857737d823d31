import type { LifecycleDef } from '../resource/lifecycle.ts';
import type { EnumOption, ResourceDef } from '../resource/types.ts';

/**
 * 技术文档 (技术部): drawings, process cards, inspection standards and customer specifications of
 * a product and/or a process, each kept as revisions (A, B, C… or V1, V2…) whose files are
 * attachments. The document's lifecycle approves and publishes its working revision; publishing
 * makes it the 现行 revision and marks the one before 已替代 (still readable).
 */

export const TECHNICAL_DOCUMENT_TYPES: EnumOption[] = [
  { value: 'drawing', label: '图纸', color: 'blue' },
  { value: 'process-card', label: '工艺卡', color: 'cyan' },
  { value: 'inspection-standard', label: '检验标准', color: 'purple' },
  { value: 'customer-spec', label: '客户规范', color: 'orange' },
];

/** States of one revision: the working one (草稿/已审批), the one in force (现行), older ones (已替代). */
export const REVISION_STATES: EnumOption[] = [
  { value: 'draft', label: '草稿', color: 'default' },
  { value: 'approved', label: '已审批', color: 'blue' },
  { value: 'current', label: '现行', color: 'green' },
  { value: 'superseded', label: '已替代', color: 'default' },
  { value: 'voided', label: '作废', color: 'red' },
];

/** The owner name of a revision's files in the attachment store (`attachment.owner_resource`). */
export const REVISION_ATTACHMENT_OWNER = 'technical-document-revision';

/**
 * 草稿 → 已审批 → 已发布, or 作废 (with a reason). 新版本 opens a working revision on a draft
 * without one, or on a published document (which goes back to 草稿 while its 现行 revision stays
 * in force until the new one is published); it needs the edit permission.
 */
export const TECHNICAL_DOCUMENT_LIFECYCLE: LifecycleDef = {
  states: [
    { value: 'draft', label: '草稿', color: 'default' },
    { value: 'approved', label: '已审批', color: 'blue' },
    { value: 'published', label: '已发布', color: 'green' },
    { value: 'voided', label: '作废', color: 'red' },
  ],
  initial: 'draft',
  editable: ['draft'],
  transitions: [
    {
      name: 'revise',
      label: '新版本',
      from: ['draft', 'published'],
      to: 'draft',
      action: 'edit',
      input: [
        {
          name: 'revisionNo',
          label: '版本号',
          kind: 'text',
          max: 20,
          help: '如 A、B、C 或 V1、V2；不填按上一版顺延（A→B，V1→V2），第一版为 A',
        },
        { name: 'changeNote', label: '变更说明', kind: 'textarea', max: 500 },
      ],
    },
    {
      name: 'approve',
      label: '审批',
      from: ['draft'],
      to: 'approved',
      tone: 'primary',
      confirm: '审批后版本文件不能再增删。确定审批？',
    },
    {
      name: 'unapprove',
      label: '反审批',
      from: ['approved'],
      to: 'draft',
      reason: true,
      confirm: '反审批后回到草稿，可以修改文件。确定反审批？',
    },
    {
      name: 'publish',
      label: '发布',
      from: ['approved'],
      to: 'published',
      tone: 'primary',
      confirm: '发布后该版本成为现行版本，上一版本标记为已替代。确定发布？',
    },
    {
      name: 'void',
      label: '作废',
      from: ['draft', 'approved', 'published'],
      to: 'voided',
      reason: true,
      tone: 'danger',
      confirm: '作废后文档不再使用，各版本文件仍可查阅。确定作废？',
    },
  ],
};

export const technicalDocumentResource: ResourceDef = {
  name: 'technical-document',
  label: '技术文档',
  table: 'technical_document',
  permission: 'technology:document',
  route: '/technology-dept/technology-manage',
  labelField: 'title',
  codeField: 'docNo',
  numbering: { prefix: 'JS' },
  lifecycle: TECHNICAL_DOCUMENT_LIFECYCLE,
  importable: false,
  fields: [
    {
      name: 'docNo',
      label: '文档编号',
      kind: 'text',
      max: 30,
      readonly: true,
      unique: true,
      filter: 'like',
      sortable: true,
      help: '保存时生成，如 JS20261125-0001',
    },
    {
      name: 'title',
      label: '文档名称',
      kind: 'text',
      max: 100,
      required: true,
      filter: 'like',
      sortable: true,
    },
    {
      name: 'docType',
      label: '文档类型',
      kind: 'enum',
      options: TECHNICAL_DOCUMENT_TYPES,
      required: true,
      filter: 'eq',
    },
    {
      name: 'materialId',
      label: '产品',
      kind: 'ref',
      ref: 'material-info',
      filter: 'eq',
      help: '文档所属的产品或物料；产品与工序至少填一项',
    },
    {
      name: 'processId',
      label: '工序',
      kind: 'ref',
      ref: 'process-manage',
      filter: 'eq',
      help: '文档所属的工序（工艺卡、检验标准）；产品与工序至少填一项',
    },
    {
      name: 'status',
      label: '状态',
      kind: 'enum',
      options: TECHNICAL_DOCUMENT_LIFECYCLE.states,
      readonly: true,
      filter: 'eq',
      sortable: true,
    },
    {
      name: 'currentRevision',
      label: '现行版本',
      kind: 'text',
      max: 20,
      readonly: true,
      help: '最近一次发布的版本；修订中的新版本发布前它仍然有效',
    },
    { name: 'workingRevision', label: '修订中版本', kind: 'text', max: 20, readonly: true },
    { name: 'publishedAt', label: '发布时间', kind: 'datetime', readonly: true, sortable: true },
    { name: 'statusReason', label: '作废/反审批原因', kind: 'text', max: 500, readonly: true, list: false },
    { name: 'remark', label: '备注', kind: 'textarea', max: 500, list: false, wide: true },
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};
