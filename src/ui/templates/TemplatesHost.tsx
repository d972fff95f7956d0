/** Mount once: the template gallery dialog. */
import { TemplateGallery } from './TemplateGallery.tsx'
import './templates.css'

export function TemplatesHost() {
  return <TemplateGallery />
}
