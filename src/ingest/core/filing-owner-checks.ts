import { type RawBuilder, sql } from 'kysely';
import type { ImportIssue } from './issues.js';
import type { StageDb } from './stage.js';

interface Finding {
  line: number | string;
  detail: string | null;
}

/** Where EDGAR keeps a filing: `…/Archives/edgar/data/{CIK}/{accession without dashes}/…`. */
const EDGAR_DATA = '://www.sec.gov/Archives/edgar/data/';

/** The CIK of a staged document's company: the bundle's, else the database's. */
const COMPANY_CIK = sql`coalesce(
  (select max(t.cik) from stage_companies t where t.company_id = s.company_id),
  (select c.cik from companies c where c.company_id = s.company_id))`;

/** A CIK as EDGAR's folders write it: without leading zeros. */
const FOLDER_CIK = sql`cast(cast(${COMPANY_CIK} as bigint) as text)`;
const FOLDER_ACCESSION = sql`replace(s.accession, '-', '')`;

/**
 * SEC documents whose EDGAR address (`source_url`, or the main document's) is the folder of
 * another filing, or of another filer than the document's company. The address is the source's
 * own record of whose filing it is: an accession number's prefix is not (a filing agent's CIK
 * begins the accession numbers of every company it files for).
 */
function edgarFolderFindings(column: 'source_url' | 'main_document_url'): RawBuilder<Finding> {
  const url = sql.ref(`s.${column}`);
  const edgar = sql`${url} like ${`%${EDGAR_DATA}%`}`;
  const accessionFolder = sql`${url} like '%/' || ${FOLDER_ACCESSION} || '/%'`;
  const folderOf = (cik: RawBuilder<unknown>) =>
    sql`${url} like ${`%${EDGAR_DATA}`} || ${cik} || '/' || ${FOLDER_ACCESSION} || '/%'`;
  // The company's own CIK, or one it also files under (design §19.4: a predecessor's).
  const ownFolder = sql`(${folderOf(FOLDER_CIK)} or exists (select 1 from (
      select o.cik as cik from stage_company_ciks o where o.company_id = s.company_id
      union all select i.value as cik from company_identifiers i where i.kind = 'cik' and i.company_id = s.company_id) k
    where ${folderOf(sql`cast(cast(k.cik as bigint) as text)`)}))`;
  return sql<Finding>`
    select s.line, case
      when not (${accessionFolder}) then ${`${column} `} || ${url} || ' is not the folder of accession ' || s.accession
      else ${`${column} `} || ${url} || ' is a filing of another CIK than ' || ${COMPANY_CIK} || ', the CIK of company ' || s.company_id
    end as detail
    from stage_documents s
    where s.accession is not null and ${edgar}
      and (not (${accessionFolder}) or (${COMPANY_CIK} is not null and not (${ownFolder})))`;
}

/**
 * A stored filing restaged under another company: its accession number belongs to the company
 * that holds it (a co-registrant's filing stays with the company that has it). A different
 * document with the same accession is refused by the whole-bundle checks already.
 */
const movedFiling = sql<Finding>`
  select s.line, 'document ' || s.document_id || ' (accession ' || s.accession || ') is a filing of company '
    || d.company_id || ' in the database, not of ' || s.company_id as detail
  from stage_documents s join documents d on d.document_id = s.document_id
  where d.accession is not null and d.company_id <> s.company_id`;

/**
 * Checks that every SEC document of the stage is its own company's filing (design §10, §15): an
 * accession number and the company it is filed under must agree with the filing's EDGAR address
 * and the company's CIK, and with a filing the database already holds. Together with the checks
 * that an accession appears once, this refuses a bundle whose accession numbers were swapped
 * between companies, also in an empty database.
 */
export async function checkFilingOwners(db: StageDb): Promise<ImportIssue[]> {
  const issues: ImportIssue[] = [];
  for (const query of [edgarFolderFindings('source_url'), edgarFolderFindings('main_document_url'), movedFiling]) {
    const { rows } = await query.execute(db);
    for (const r of rows) issues.push({ file: 'documents.csv', line: Number(r.line), message: r.detail ?? '' });
  }
  return issues;
}
